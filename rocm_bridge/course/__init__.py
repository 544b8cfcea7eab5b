"""The course: chapter prose and its directives (content), the glossary, the chapter widgets registry (widgets,
widget_tables), printable handouts (handout) and search over all of it (search, search_cli).

Headless like the rest of the core: rocm_bridge.ui renders what these modules return.
"""
