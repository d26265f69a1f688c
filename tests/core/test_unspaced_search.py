"""Chinese, Japanese and Korean are found by a word inside them. FTS5 read a run of them as
one word: "安装" or even "pnpm" in "我们用pnpm安装依赖" found nothing, for the person searching
and for an agent's prompt alike."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from memdesk.core import MemoryService
from memdesk.store import migrations

CHINESE = "我们的项目总是使用pnpm安装依赖"
JAPANESE = "本番環境のデータベースはポート5433で待ち受けています"
KOREAN = "배포는 항상 금요일 오후에 하지 않습니다"


def _found(service, query: str, **options) -> list[str]:
    return [hit["content"] for hit in service.search(query, **options)["hits"]]


@pytest.mark.parametrize(
    ("content", "query"),
    [
        (CHINESE, "安装"),  # a word inside the run
        (CHINESE, "pnpm"),  # a word in letters glued to it
        (CHINESE, "帮我安装一个markdown解析器"),  # an agent's prompt, itself unspaced
        (JAPANESE, "データベース"),
        (JAPANESE, "5433"),
        (KOREAN, "배포"),  # the word without its particle (배포는)
    ],
)
def test_a_word_inside_unspaced_text_finds_it(service, content, query):
    service.add(content)
    service.add("The release notes live in docs/releases.")
    assert _found(service, query) == [content]


def test_pairs_that_are_not_in_the_text_find_nothing(service):
    service.add(CHINESE)
    assert _found(service, "装安") == []  # its characters, not its words
    assert _found(service, "数据库") == []


def test_an_edited_text_is_found_by_its_new_words_only(service):
    memory = service.add(CHINESE)
    service.update(memory["id"], content="我们的项目总是使用yarn部署")
    assert _found(service, "部署") == ["我们的项目总是使用yarn部署"]
    assert _found(service, "安装") == []


def test_a_memory_in_a_task_comes_before_its_neighbours_for_its_own_words(service):
    service.add("部署之前先运行测试", task="t1")
    service.add("然后给版本打标签", task="t1")
    assert _found(service, "运行")[0] == "部署之前先运行测试"
    assert _found(service, "标签")[0] == "然后给版本打标签"


def test_imported_memories_are_found_by_a_word_inside_them(service, tmp_path):
    service.add(JAPANESE)
    text = service.export("json")
    service.close()
    other = MemoryService.open(tmp_path / "other.db")
    try:
        other.import_json(text)
        assert _found(other, "ポート") == [JAPANESE]
    finally:
        other.close()


def test_a_store_from_before_is_searchable_once_opened(db_path):
    service = MemoryService.open(db_path)
    service.add(CHINESE)
    service.close()
    with closing(sqlite3.connect(db_path)) as plain, plain:
        # as memdesk left it before step 19: no context for a memory outside a task
        plain.execute("UPDATE memory SET context = ''")
        before = migrations.MIGRATIONS.index(migrations._v19_unspaced_context)
        plain.execute(f"PRAGMA user_version = {before}")
    service = MemoryService.open(db_path)
    try:
        assert _found(service, "依赖") == [CHINESE]
        assert service.check() == []
    finally:
        service.close()


@pytest.mark.parametrize(
    ("content", "query"),
    [
        ("Der Ersatzschlüssel liegt im Außenlager", "Außenlager"),  # casefold made it "ss"
        ("İstanbul ofisindeki yazıcı", "İstanbul"),  # lowered, İ split the word in two
        ("Ｆｕｌｌｗｉｄｔｈ ＡＰＩ ｋｅｙ ｒｏｔａｔｉｏｎ", "API key"),  # full-width
        ("ｶﾀｶﾅ半角のログはｼｽﾃﾑ文字コードで保存", "システム"),  # half-width katakana
        ("The ﬁle server is in rack 4", "file"),  # a ligature pasted from a PDF
        ("Die Pru\u0308fung la\u0308uft nachts", "Prüfung"),  # decomposed, as macOS pastes it
    ],
)
def test_a_word_is_found_in_the_form_people_type_it(service, content, query):
    service.add(content)
    service.add("The release notes live in docs/releases.")
    assert _found(service, query) == [content]


def test_a_tag_in_chinese_is_found_whole(service):
    """Split into pairs, a query no longer found the tag it named (a tag is held whole)."""
    service.add("Use black to format", tags=["代码风格"])
    assert _found(service, "代码风格") == ["Use black to format"]
