/* accel-check - run int8/uint8 vector files through the accel MAC engine.
 *
 *   build/accel-check FILE...
 *
 * Each file is in the text format of tests/vectors/int8/FORMAT.md (the TFLite golden cases
 * there are examples: build/accel-check tests/vectors/int8/golden_fc.txt). One line per case:
 *   case NAME ok
 *   case NAME FAIL index I got G want W       (first differing output element)
 *   case NAME FAIL status ACCEL_E_...          (the engine refused the case)
 * then "N passed, N failed". Exit status (as diff and cmp have it): 0 all passed, 1 a case
 * failed, 2 a usage error or a file that was malformed, unreadable, a directory or without any
 * case (reported as FILE:LINE: reason on stderr; its remaining cases are skipped). A case whose
 * `rounding` is `single` runs with ACCEL_MAC_ROUND_SINGLE. Options: --help, --version; "--"
 * ends them (a file named "-x" is then given as "-x"). */
#include "accel.h"

#include "cli.h"
#include "mac_vectors.h"

int main(int argc, char **argv)
{
    long passed = 0, failed = 0;
    int i = 1, bad = 0;
    cli_start("accel-check", "run int8/uint8 test-vector files through the accel MAC engine",
              "usage: accel-check [--] FILE...\n"
              "  FILE: int8/uint8 vector cases in the text format of tests/vectors/int8/FORMAT.md\n"
              "  prints one line per case, then \"N passed, N failed\"\n"
              "exit status: 0 all passed, 1 a case failed, 2 usage, or a file malformed or unreadable\n",
              argc, argv);
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        cli_std_option(argv[i]);
        return cli_usage("unknown option %s", argv[i]);
    }
    if (i >= argc) return cli_usage("no FILE given");
    for (; i < argc; i++)
        if (run_file(argv[i], &passed, &failed)) bad = 1;
    printf("%ld passed, %ld failed\n", passed, failed);
    return bad ? 2 : failed ? 1 : 0;
}
