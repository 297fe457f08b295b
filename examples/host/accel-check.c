/* accel-check - run int8/uint8 vector files through the accel MAC engine.
 *
 *   build/accel-check FILE...
 *
 * Each file is in the text format of tests/vectors/int8/FORMAT.md (the TFLite golden cases
 * there are examples: build/accel-check tests/vectors/int8/golden_fc.txt). One line per case:
 *   case NAME ok
 *   case NAME FAIL index I got G want W       (first differing output element)
 *   case NAME FAIL status ACCEL_E_...          (the engine refused the case)
 * then "N passed, N failed". Exit status: 0 all passed, 1 a case failed, 2 a file was
 * malformed or unreadable (reported as FILE:LINE: reason on stderr; its remaining cases are
 * skipped). A case whose `rounding` is `single` runs with ACCEL_MAC_ROUND_SINGLE. */
#include "accel.h"

#include "mac_vectors.h"

int main(int argc, char **argv)
{
    long passed = 0, failed = 0;
    int i, bad = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE...  (int8/uint8 vector files, see tests/vectors/int8/FORMAT.md)\n",
                argv[0]);
        return 2;
    }
    for (i = 1; i < argc; i++)
        if (run_file(argv[i], &passed, &failed)) bad = 1;
    printf("%ld passed, %ld failed\n", passed, failed);
    return bad ? 2 : failed ? 1 : 0;
}
