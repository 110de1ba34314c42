#!/usr/bin/env python3
"""json-orders check: exit 0 iff FILE is valid JSON holding an object with "kind": "refund"
and a negative number as "amount" that is an element of a "lines" array of an object that is
an element of an "orders" array (anywhere in the document)."""
import json
import sys


def is_needle(obj):
    amount = obj.get("amount")
    return (obj.get("kind") == "refund" and isinstance(amount, (int, float))
            and not isinstance(amount, bool) and amount < 0)


def found(doc):
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            orders = node.get("orders")
            if isinstance(orders, list):
                for order in orders:
                    if isinstance(order, dict) and isinstance(order.get("lines"), list):
                        if any(isinstance(x, dict) and is_needle(x) for x in order["lines"]):
                            return True
            stack.extend(node.values())
    return False


def main():
    try:
        with open(sys.argv[1], "rb") as fh:
            doc = json.load(fh)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return 1
    return 0 if found(doc) else 1


if __name__ == "__main__":
    sys.exit(main())
