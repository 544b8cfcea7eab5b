"""hipify: CUDA -> HIP source translation driven by data/hipify_mappings.csv (AMD HIPIFY's tables).

Public surface:
    translate(text, Options(...)) -> Result      rename, headers, launches (rocm_bridge.hipify.translator)
    lint(text) -> list[Finding]                  wavefront-64 portability lint (rocm_bridge.hipify.lint)
    report.summarize(result) / stats_text(...)   counts, coverage-formula percentage (rocm_bridge.hipify.report)
    `python -m rocm_bridge hipify ...`           the command line (rocm_bridge.hipify.cli)

Submodules are imported on use, so `import rocm_bridge.hipify` stays cheap.
"""
