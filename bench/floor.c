/*
 * floor: the physical floor of a headroom sample, for `make bench`.
 *
 * It does only what no collector of the same files can avoid: the files are opened once,
 * and each sample re-reads every file from offset 0 with pread into a fixed buffer, with no
 * parsing and no allocation. headroom's sampler (source.Sampler) reads the same files the
 * same way and then parses them; the ratio of the two is what the sampler adds to the
 * kernel's own cost of printing the files.
 *
 * usage: floor MODE SAMPLES FILE...
 *   MODE eof:  pread until it returns 0, as the sampler does. A short read is not the end of
 *              a seq_file (fs/seq_file.c seq_read_iter returns one page-sized batch of
 *              records per read), so reading a whole file takes at least one read that
 *              returns 0 - except a file printed by one show call (single_open,
 *              proc_create_single: meminfo, stat, the pressure files, net/snmp ...), which
 *              seq_read_iter prints whole, so a read shorter than the buffer has returned
 *              all of it. The sampler stops there (source.SingleRecord); a FILE given as
 *              "1:PATH" is such a file, and the floor stops there too, so both sides make
 *              the same system calls.
 *   MODE once: a single pread per file into the 64 KiB buffer; cheaper, but may stop short
 *              of the end of a multi-page seq_file. For information only.
 *
 * It prints one line of key=value pairs: samples, files, bytes (read per sample), and
 * cpu_ns_per_sample, the user+system CPU time of this process (getrusage RUSAGE_SELF) over
 * the SAMPLES samples after one warm-up sample, divided by SAMPLES.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#define BUFSZ (64 * 1024)

static char buf[BUFSZ];

static long long tv_ns(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000000LL + (long long)tv.tv_usec * 1000LL;
}

static long long cpu_ns(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0) {
		perror("floor: getrusage");
		exit(1);
	}
	return tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
}

/* read_file reads fd from offset 0 and returns the number of bytes, or -1. A single-record
 * file (one) ends at its first read shorter than the buffer. */
static long read_file(int fd, int to_eof, int one)
{
	long n = 0;
	for (;;) {
		ssize_t m = pread(fd, buf, BUFSZ, n);
		if (m < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (m == 0 || !to_eof || (one && n == 0 && m < BUFSZ))
			return n + m;
		n += m;
	}
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: floor eof|once SAMPLES FILE...\n");
		return 2;
	}
	int to_eof = strcmp(argv[1], "eof") == 0;
	if (!to_eof && strcmp(argv[1], "once") != 0) {
		fprintf(stderr, "floor: mode %s: want eof or once\n", argv[1]);
		return 2;
	}
	long samples = atol(argv[2]);
	int nfiles = argc - 3;
	int *fds = calloc(nfiles, sizeof *fds);
	int *one = calloc(nfiles, sizeof *one);
	if (samples <= 0 || fds == NULL || one == NULL) {
		fprintf(stderr, "floor: bad sample count %s\n", argv[2]);
		return 2;
	}
	for (int i = 0; i < nfiles; i++) {
		if (strncmp(argv[3 + i], "1:", 2) == 0) {
			one[i] = 1;
			argv[3 + i] += 2;
		}
		fds[i] = open(argv[3 + i], O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0) {
			fprintf(stderr, "floor: open %s: %s\n", argv[3 + i], strerror(errno));
			return 1;
		}
	}
	long bytes = 0;
	for (int i = 0; i < nfiles; i++) { /* warm-up sample, also the byte count */
		long n = read_file(fds[i], to_eof, one[i]);
		if (n < 0) {
			fprintf(stderr, "floor: read %s: %s\n", argv[3 + i], strerror(errno));
			return 1;
		}
		bytes += n;
	}
	long long start = cpu_ns();
	for (long s = 0; s < samples; s++) {
		for (int i = 0; i < nfiles; i++) {
			if (read_file(fds[i], to_eof, one[i]) < 0) {
				fprintf(stderr, "floor: read %s: %s\n", argv[3 + i], strerror(errno));
				return 1;
			}
		}
	}
	long long used = cpu_ns() - start;
	printf("samples=%ld files=%d bytes=%ld cpu_ns_per_sample=%lld\n", samples, nfiles, bytes,
	       used / samples);
	return 0;
}
