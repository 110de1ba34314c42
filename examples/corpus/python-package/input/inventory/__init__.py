"""The shop's catalogue and how its items are priced."""
from .models import Item  # noqa: F401

__all__ = ["models", "pricing"]
