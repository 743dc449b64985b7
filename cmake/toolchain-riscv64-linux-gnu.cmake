# Cross build for 64-bit RISC-V Linux (gcc-riscv64-linux-gnu): an
# architecture with no kernels of its own, which proves the portable path
# builds without any x86 or NEON code.
#   cmake -S . -B build-riscv64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-riscv64-linux-gnu.cmake -DNN_BUILD_TESTS=OFF
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(NN_CROSS_TRIPLE riscv64-linux-gnu)

set(CMAKE_C_COMPILER ${NN_CROSS_TRIPLE}-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE ${NN_CROSS_TRIPLE})

set(CMAKE_FIND_ROOT_PATH /usr/${NN_CROSS_TRIPLE} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

find_program(NN_QEMU_RISCV64 NAMES qemu-riscv64 qemu-riscv64-static)
if(NN_QEMU_RISCV64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${NN_QEMU_RISCV64} -L /usr/${NN_CROSS_TRIPLE})
endif()
