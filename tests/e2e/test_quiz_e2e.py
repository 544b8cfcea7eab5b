"""The quiz in a real browser: answer a question and get feedback; a bad nickname is refused and shown escaped."""

from rocm_bridge import i18n

from browser import EXCEPTION, screenshot, wait_for_app

# ch2's misconception items are all "myth or fact" statements whose answer is False: a known right answer
DECK = "qz_set=misconceptions&qz_ch=ch2&qz_gen=false"


def test_answer_a_question_and_get_feedback(app_server, page):
    page.goto(f"{app_server}/quiz?lang=en&{DECK}")
    wait_for_app(page, 60_000)
    radio = page.locator('[data-testid="stRadio"]').last
    radio.get_by_text(i18n.t("quiz.false", "en"), exact=True).click()
    page.get_by_role("button", name=i18n.t("quiz.check", "en")).click()
    page.wait_for_selector(f"text={i18n.t('quiz.correct', 'en')}", timeout=20_000)
    assert page.get_by_text(i18n.t("quiz.explanation", "en") + ":").count() >= 1
    assert page.get_by_role("link", name="Learn more", exact=False).count() >= 1
    screenshot(page, "quiz-feedback-en")

    page.get_by_role("button", name=i18n.t("quiz.next", "en")).click()
    page.wait_for_selector(f"text={i18n.t('quiz.question_n', 'en', i=2, n=4)}", timeout=20_000)
    radio = page.locator('[data-testid="stRadio"]').last
    radio.get_by_text(i18n.t("quiz.true", "en"), exact=True).click()
    page.get_by_role("button", name=i18n.t("quiz.check", "en")).click()
    page.wait_for_selector("text=Not quite", timeout=20_000)
    assert page.locator(EXCEPTION).count() == 0
    assert "qz_set=misconceptions" in page.url and "qz_ch=ch2" in page.url


def test_nickname_is_validated_and_escaped(app_server, page):
    page.goto(f"{app_server}/quiz?lang=zh&{DECK}")
    wait_for_app(page, 60_000)
    box = page.get_by_label(i18n.t("quiz.nick.label", "zh"))
    box.fill("<img src=x>")
    page.get_by_role("button", name=i18n.t("quiz.nick.join", "zh")).click()
    page.wait_for_selector(f"text={i18n.t('quiz.errors.nickname_chars', 'zh')}", timeout=20_000)
    assert page.locator("img[src='x']").count() == 0
    box.fill("小明_2")
    page.get_by_role("button", name=i18n.t("quiz.nick.join", "zh")).click()
    page.wait_for_selector("text=小明_2", timeout=20_000)
    assert page.locator(EXCEPTION).count() == 0
    screenshot(page, "quiz-nickname-zh")
