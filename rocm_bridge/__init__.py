"""ROCm Bridge: learn, check and practise moving GPU work from CUDA to ROCm.

The core package is plain Python: importing it loads neither streamlit nor any deep-learning framework
nor pandas (tests/test_imports.py enforces it). Pages live in views/, shared widgets in rocm_bridge.ui.
"""

__version__ = "0.1.0"
