"""Items of the catalogue."""
from collections import namedtuple

Item = namedtuple("Item", "name category cost packs per_pack")


def catalogue():
    return [
        Item("soap", "home", 1.20, 10, 4),
        Item("tea", "food", 3.50, 6, 20),
        Item("rice", "food", 2.10, 8, 1),
        Item("candles", "home", 4.00, 3, 12),
        Item("samples", "promo", 0.0, 5, 0),
        Item("stamps", "office", 6.40, 2, 50),
    ]


def by_category(items):
    groups = {}
    for item in items:
        groups.setdefault(item.category, []).append(item)
    return groups
