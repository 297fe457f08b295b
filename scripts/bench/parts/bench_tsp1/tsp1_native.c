/* the default CRC of a -march=native build (x86-64 here: VPCLMULQDQ or PCLMULQDQ folding) */
#define BENCH_TSP1 bench_tsp1_native
#include "tsp1_variant.h"
