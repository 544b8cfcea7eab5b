"""The house look, headless: every visual constant (style) and the chart layout every picture builder uses (figures).

Picture builders themselves live beside the data they draw (rocm_bridge.stack.figure, rocm_bridge.formulas.figures,
rocm_bridge.hardware, rocm_bridge.coverage.chart, rocm_bridge.live.published_figure); they take their colours, fonts
and sizes from here, so a theme or presenter-mode change is one edit.
"""
