/* counter.c: the counter itself. */
#include "counter.h"

int counter[COUNTER_SLOTS];

static const char *const names[COUNTER_SLOTS] = {
    "open", "read", "write", "close",
};

void counter_reset(void)
{
    for (size_t i = 0; i < COUNTER_SLOTS; i++)
        counter[i] = 0;
}

void counter_add(size_t slot, int amount)
{
    if (slot < COUNTER_SLOTS)
        counter[slot] += amount;
}

long counter_total(void)
{
    long total = 0;
    for (size_t i = 0; i < COUNTER_SLOTS; i++)
        total += counter[i];
    return total;
}

const char *counter_name(size_t slot)
{
    return slot < COUNTER_SLOTS ? names[slot] : "?";
}
