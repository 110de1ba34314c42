/* main.c: replays a small trace of events and prints a report.
 * It declares the counter itself instead of including counter.h, with the wrong type: the
 * link-time optimiser sees both declarations and warns. */
#include <stdio.h>
#include <string.h>

extern long counter;

void counter_reset(void);
void counter_add(size_t slot, int amount);
long counter_total(void);
const char *counter_name(size_t slot);

static const char *trace[] = {
    "open", "read", "read", "write", "read", "close", "open", "write",
};

static size_t slot_of(const char *event)
{
    for (size_t i = 0; i < 4; i++)
        if (strcmp(counter_name(i), event) == 0)
            return i;
    return 4;
}

int main(void)
{
    counter_reset();
    for (size_t i = 0; i < sizeof trace / sizeof trace[0]; i++)
        counter_add(slot_of(trace[i]), 1);
    printf("first slot: %ld\n", counter);
    for (size_t i = 0; i < 4; i++)
        printf("%-6s seen\n", counter_name(i));
    printf("total: %ld\n", counter_total());
    return 0;
}
