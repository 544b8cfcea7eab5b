"""The Streamlit runtime fix: no Keras clear_session (a full gc) after every rerun."""

import sys
import types

from rocm_bridge.ui.runtime import keep_keras_state


def test_reruns_no_longer_clear_the_keras_session(monkeypatch):
    from streamlit.runtime.scriptrunner import script_runner

    calls = []
    fake_keras = types.SimpleNamespace(backend=types.SimpleNamespace(clear_session=lambda: calls.append("keras")))
    fake_plt = types.SimpleNamespace(close=lambda what: calls.append(f"plt:{what}"))
    monkeypatch.setitem(sys.modules, "keras", fake_keras)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", fake_plt)
    # The app (imported by earlier tests) may have installed the fix already: start from Streamlit's own.
    original = getattr(script_runner, "_streamlit_clean_problem_modules", script_runner._clean_problem_modules)
    monkeypatch.setattr(script_runner, "_clean_problem_modules", original)

    script_runner._clean_problem_modules()
    assert calls == ["keras", "plt:all"]  # Streamlit's own behaviour, which the fix exists for

    calls.clear()
    keep_keras_state()
    script_runner._clean_problem_modules()
    assert calls == ["plt:all"]
