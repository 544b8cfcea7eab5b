"""Hardware comparison: MI250 vs A100 by default, any GPU from data/gpu_specs.csv on request."""

from rocm_bridge.pages import by_file
from rocm_bridge.ui import page_header
from rocm_bridge.ui.hardware_view import render_hardware
from rocm_bridge.ui.roofline_picture import render as roofline_picture

page_header(by_file("views/hardware.py").title_key)
roofline_picture()
render_hardware()
