"""Prices: a margin on cost, and the price of one unit of a pack."""

MARGIN = 1.35
ROUNDING = 0.05


def round_price(value):
    steps = round(value / ROUNDING)
    return steps * ROUNDING


def shelf_price(item):
    return round_price(item.cost * MARGIN)


def unit_price(item):
    # A promotional pack has no units: this divides by zero.
    return shelf_price(item) / item.per_pack


def discount(item, percent):
    return round_price(shelf_price(item) * (100 - percent) / 100)
