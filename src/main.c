/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cli/cli.h"

int main(int argc, char **argv)
{
	return cb_main(argc, argv, NULL);
}
