// SPDX-License-Identifier: MIT
// Included by ../subgroups.cl through -I: the tile's width.
#define TILE 32
