/*
 * The machine a benchmark's figures come from: shared by the benchmarks
 * that print figures against a peer.
 */
#ifndef NN_BENCH_MACHINE_H
#define NN_BENCH_MACHINE_H

/* Prints "CPU: <model> (<n> online)" and the ISA in use and detected. */
void bench_print_machine(void);

#endif
