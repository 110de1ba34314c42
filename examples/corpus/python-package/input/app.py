#!/usr/bin/env python3
"""Stock report for a small shop: loads the catalogue, prices it, prints totals."""
import sys

from inventory.models import Item, catalogue
from inventory import pricing
from reports.totals import summary, per_category


def load(argv):
    limit = int(argv[1]) if len(argv) > 1 else None
    items = catalogue()
    if limit is not None:
        items = items[:limit]
    return items


def main(argv):
    items = load(argv)
    print("items:", len(items))
    for item in items:
        print("  %-10s %6.2f" % (item.name, pricing.shelf_price(item)))
    for category, total in sorted(per_category(items).items()):
        print("category %s: %.2f" % (category, total))
    print(summary(items))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
