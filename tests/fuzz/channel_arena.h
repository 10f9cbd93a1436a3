/* channel_arena.h: where fuzz_channel.c keeps the program memory the
 * runtime's readers may write (inside the covered range, away from ASan's
 * allocator at 0x600000000000), shared with chan_seed.c, which moves the
 * seeds' DATA into it: the recorded program's stack and image addresses
 * (0x7fff...) are the harness's own in a host process. */
#ifndef FUZZ_CHANNEL_ARENA_H
#define FUZZ_CHANNEL_ARENA_H
#define FUZZ_ARENA 0x700000000000ull
#define FUZZ_ARENA_SIZE (1ull << 20)
#endif
