"""The worker's bounded store (companion/tables/lru.py): the least recently used goes first, and a
value kept at a version is found at that version only and never replaced by an older one."""

from companion.tables.lru import Lru


def test_the_least_recently_used_goes_first():
    store = Lru(2)
    store.put("a", 1)
    store.put("b", 2)
    assert store.get("a") == 1  # now the most recent
    store.put("c", 3)
    assert (store.get("a"), store.get("b"), store.get("c")) == (1, None, 3)


def test_a_value_at_a_version_is_found_at_it_and_an_older_one_does_not_replace_it():
    store = Lru(4)
    store.keep_newest("table", 5, "log at 5")
    assert (store.at("table", 5), store.at("table", 4), store.at("table", 6)) == ("log at 5", None, None)
    store.keep_newest("table", 4, "log at 4")  # a slower request of an older version
    assert (store.at("table", 5), store.at("table", 4)) == ("log at 5", None)
    store.keep_newest("table", 6, "log at 6")
    assert (store.at("table", 6), store.at("table", 5)) == ("log at 6", None)
