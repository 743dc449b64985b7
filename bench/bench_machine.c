#include "bench_machine.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kernels/isa.h"

void bench_print_machine(void)
{
    char model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon) {
                    snprintf(model, sizeof model, "%s", colon + 2);
                    model[strcspn(model, "\n")] = 0;
                }
                break;
            }
        }
        fclose(f);
    }
    printf("CPU: %s (%ld online)\n", model, sysconf(_SC_NPROCESSORS_ONLN));
    printf("ISA: %s (detected %s; NNAPI_LINUX_ISA narrows it)\n", nn_isa_name(nn_isa_current()),
           nn_isa_name(nn_isa_detected()));
}
