"""Totals and averages for the report's last lines."""
from inventory import pricing
from inventory.models import by_category


def stock_value(items):
    return sum(pricing.shelf_price(i) * i.packs for i in items)


def per_category(items):
    return {
        category: stock_value(group)
        for category, group in by_category(items).items()
    }


def average_unit_price(items):
    prices = [pricing.unit_price(i) for i in items]
    return sum(prices) / len(prices)


def summary(items):
    lines = [
        "stock value: %.2f" % stock_value(items),
        "average unit price: %.3f" % average_unit_price(items),
    ]
    return "\n".join(lines)
