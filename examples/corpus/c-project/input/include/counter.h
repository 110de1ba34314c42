/* counter.h: a shared event counter and its helpers. */
#ifndef COUNTER_H
#define COUNTER_H

#include <stddef.h>

#define COUNTER_SLOTS 4

/* How many events of each kind were seen. */
extern int counter[COUNTER_SLOTS];

void counter_reset(void);
void counter_add(size_t slot, int amount);
long counter_total(void);
const char *counter_name(size_t slot);

#endif
