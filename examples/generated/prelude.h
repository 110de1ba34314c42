/* Stand-in for csmith.h in the generated cases under 200 KB: the full header alone preprocesses
   to about 80 KB, so a small case keeps only the integer types and the two hooks main calls
   (Csmith runs with --no-safe-math --no-checksum for these, so nothing else is needed). */
#include <stdint.h>
static void platform_main_begin(void) {}
static void platform_main_end(uint32_t crc, int flag) { (void)crc; (void)flag; }
