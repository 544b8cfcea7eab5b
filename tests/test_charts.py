"""The house chart helpers produce the layout they promise."""

import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from rocm_bridge.ui.charts import house_figure, house_layout, reference_line
from rocm_bridge.visual import style


def test_house_layout_titles_every_axis_of_a_grid_and_keeps_existing_layout():
    fig = make_subplots(rows=1, cols=2)
    fig.update_layout(barmode="group")
    house_layout(fig, title="Peak TFLOP/s", x_title="GPU", y_title="TFLOP/s")
    layout = fig.layout
    assert layout.title.text == "Peak TFLOP/s"
    assert layout.xaxis.title.text == layout.xaxis2.title.text == "GPU"
    assert layout.yaxis.title.text == layout.yaxis2.title.text == "TFLOP/s"
    assert layout.height == style.CHART_HEIGHT and layout.barmode == "group"


def test_reference_line_horizontal_and_vertical():
    fig = go.Figure(go.Scatter(x=[1, 10], y=[1, 5]))
    reference_line(fig, y=4.0, text="ceiling 4×")
    reference_line(fig, x=1.0, dash="dot")
    h, v = fig.layout.shapes
    assert (h.y0, h.y1, h.xref, h.x0, h.x1) == (4.0, 4.0, "paper", 0, 1)
    assert (v.x0, v.x1, v.yref, v.line.dash) == (1.0, 1.0, "paper", "dot")
    [label] = fig.layout.annotations  # only the labelled line has text
    assert label.text == "ceiling 4×" and label.y == 4.0


def test_reference_line_needs_exactly_one_position():
    with pytest.raises(ValueError):
        reference_line(go.Figure(), x=1, y=1)
    with pytest.raises(ValueError):
        reference_line(go.Figure())


def test_house_figure_builds_data_and_layout_at_once():
    bar = go.Bar(x=[1, 2], y=["a", "b"], orientation="h")
    fig = house_figure([bar], title="Per-op time", x_title="µs", y_title="op", barmode="stack",
                       yaxis={"autorange": "reversed"})
    assert len(fig.data) == 1 and fig.layout.barmode == "stack"
    assert fig.layout.title.text == "Per-op time" and fig.layout.xaxis.title.text == "µs"
    # the extra yaxis keyword merges with the house axis title instead of replacing it
    assert fig.layout.yaxis.title.text == "op" and fig.layout.yaxis.autorange == "reversed"
    assert fig.layout.height == style.CHART_HEIGHT
