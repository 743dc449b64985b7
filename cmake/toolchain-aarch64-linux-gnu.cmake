# Cross build for 64-bit ARM Linux with Debian's toolchain
# (gcc-aarch64-linux-gnu, libraries from multiarch :arm64 packages).
# Test programs run under user-mode emulation: CTest prefixes them with
# CMAKE_CROSSCOMPILING_EMULATOR.
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(NN_CROSS_TRIPLE aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${NN_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${NN_CROSS_TRIPLE}-g++)
set(CMAKE_LIBRARY_ARCHITECTURE ${NN_CROSS_TRIPLE})

# Libraries of the target: the cross toolchain's, and multiarch's in
# /usr/lib/<triple> (CMAKE_LIBRARY_ARCHITECTURE keeps the build machine's
# out); headers there or shared in /usr/include; programs of the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/${NN_CROSS_TRIPLE} /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The programs load the multiarch C library (libc6:arm64 in /lib/<triple>):
# Debian 12's cross copy in /usr/<triple> (2.36-8cross1) hangs in
# pthread_create under qemu-aarch64 7.2, so the sysroot prefix is / and
# not /usr/<triple>. NN_QEMU_PREFIX overrides it.
set(NN_QEMU_PREFIX / CACHE PATH "Library prefix (-L) of the emulator")
find_program(NN_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(NN_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${NN_QEMU_AARCH64} -L ${NN_QEMU_PREFIX})
endif()
