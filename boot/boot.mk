# boot/: how control reaches the kernel.
