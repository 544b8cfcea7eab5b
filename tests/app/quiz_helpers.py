"""Driving a quiz question in AppTest as a learner would (shared by the quiz, classroom and outage tests)."""


def right_answer(q):
    """The correct answer in the form its widget takes."""
    return list(q.answer) if q.type == "multiple" else q.answer


def answer(at, q, key, value):
    """Set the widget a learner would use for this question type."""
    if q.type == "numeric":
        at.text_input(key=key).input(str(value))
    elif q.type == "multiple":
        at.multiselect(key=key).set_value(value)
    else:
        at.radio(key=key).set_value(value)
