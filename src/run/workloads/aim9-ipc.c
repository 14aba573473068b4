// SPDX-License-Identifier: GPL-2.0
/*
 * AIM9's messaging tests, written from what AIM9's documentation says each
 * measures ("Pipe Messages", "FIFO Messages", "Stream Pipe Messages",
 * "DataGram Pipe Messages", "TCP/IP Messages", "UDP/IP DataGrams"): a
 * message of 512 bytes written into the channel and read out of its other
 * end, by one process, so that each operation is the kernel's path of a
 * message without a scheduler's round trip between them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aim9.h"
#include "common.h"

#define MESSAGE 512
#define FIFO_NAME "aim9-fifo.tmp"

/* A channel: write to one end, read from the other. */
struct channel {
	int in, out;
	const char *what;
	char buf[MESSAGE];
};

static struct channel *channel_new(const char *what, struct kd_err *err)
{
	struct channel *c = calloc(1, sizeof(*c));

	if (!c) {
		kd_error(err, "out of memory");
		return NULL;
	}
	c->in = c->out = -1;
	c->what = what;
	memset(c->buf, 'm', sizeof(c->buf));
	return c;
}

static void channel_teardown(void *state)
{
	struct channel *c = state;

	if (!c)
		return;
	if (c->in >= 0)
		close(c->in);
	if (c->out >= 0 && c->out != c->in)
		close(c->out);
	free(c);
	unlink(FIFO_NAME);
}

static int setup_error(struct channel *c, void **state, const char *call,
		       struct kd_err *err)
{
	int ret = kd_error(err, "%s: %s", call, strerror(errno));

	*state = c;
	return ret;
}

static int pipe_setup(void **state, struct kd_err *err)
{
	struct channel *c = channel_new("pipe", err);
	int fds[2];

	if (!c)
		return -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return setup_error(c, state, "pipe", err);
	c->out = fds[0];
	c->in = fds[1];
	*state = c;
	return 0;
}

/* A FIFO in the current directory, open for reading and writing. */
static int fifo_setup(void **state, struct kd_err *err)
{
	struct channel *c = channel_new("FIFO", err);

	if (!c)
		return -1;
	if (mkfifo(FIFO_NAME, 0600) < 0)
		return setup_error(c, state, "mkfifo " FIFO_NAME, err);
	c->in = open(FIFO_NAME, O_RDWR | O_CLOEXEC);
	if (c->in < 0)
		return setup_error(c, state, "open " FIFO_NAME, err);
	c->out = c->in;
	*state = c;
	return 0;
}

static int socketpair_setup(void **state, int type, const char *what,
			    struct kd_err *err)
{
	struct channel *c = channel_new(what, err);
	int fds[2];

	if (!c)
		return -1;
	if (socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, fds) < 0)
		return setup_error(c, state, "socketpair", err);
	c->in = fds[0];
	c->out = fds[1];
	*state = c;
	return 0;
}

static int stream_setup(void **state, struct kd_err *err)
{
	return socketpair_setup(state, SOCK_STREAM, "stream pipe", err);
}

static int dgram_setup(void **state, struct kd_err *err)
{
	return socketpair_setup(state, SOCK_DGRAM, "datagram pipe", err);
}

static struct sockaddr_in loopback(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/* A TCP connection over the loopback device, Nagle off. */
static int tcp_setup(void **state, struct kd_err *err)
{
	struct channel *c = channel_new("TCP connection", err);
	struct sockaddr_in a = loopback();
	socklen_t len = sizeof(a);
	int listener, one = 1;

	if (!c)
		return -1;
	*state = c;
	listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (listener < 0)
		return setup_error(c, state, "socket", err);
	if (bind(listener, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(listener, 1) < 0 ||
	    getsockname(listener, (struct sockaddr *)&a, &len) < 0) {
		setup_error(c, state, "listen on 127.0.0.1", err);
		close(listener);
		return -1;
	}
	c->in = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->in < 0 || connect(c->in, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    (c->out = accept4(listener, NULL, NULL, SOCK_CLOEXEC)) < 0) {
		setup_error(c, state, "connect to 127.0.0.1", err);
		close(listener);
		return -1;
	}
	close(listener);
	setsockopt(c->in, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return 0;
}

/* Two UDP sockets on the loopback device, the first connected to the second. */
static int udp_setup(void **state, struct kd_err *err)
{
	struct channel *c = channel_new("UDP socket", err);
	struct sockaddr_in a = loopback();
	socklen_t len = sizeof(a);

	if (!c)
		return -1;
	*state = c;
	c->out = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	c->in = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (c->out < 0 || c->in < 0)
		return setup_error(c, state, "socket", err);
	if (bind(c->out, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(c->out, (struct sockaddr *)&a, &len) < 0 ||
	    connect(c->in, (struct sockaddr *)&a, sizeof(a)) < 0)
		return setup_error(c, state, "UDP on 127.0.0.1", err);
	return 0;
}

/* n messages written into the channel and read out again. */
static int messages(void *state, uint64_t n, struct kd_err *err)
{
	struct channel *c = state;

	for (uint64_t k = 0; k < n; k++) {
		size_t got = 0;

		if (wl_write_all(c->in, c->buf, MESSAGE) < 0)
			return kd_error(err, "write to the %s: %s", c->what,
					strerror(errno));
		while (got < MESSAGE) {
			ssize_t r = read(c->out, c->buf + got, MESSAGE - got);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return kd_error(err, "read from the %s: %s",
						c->what,
						r ? strerror(errno) : "end of file");
			got += (size_t)r;
		}
	}
	return 0;
}

const struct aim9_test aim9_ipc_tests[] = {
	{ "dgram_pipe", "a 512-byte message through a Unix datagram socket pair",
	  dgram_setup, messages, channel_teardown },
	{ "fifo_test", "a 512-byte message through a FIFO", fifo_setup,
	  messages, channel_teardown },
	{ "pipe_cpy", "a 512-byte message through a pipe", pipe_setup,
	  messages, channel_teardown },
	{ "stream_pipe", "a 512-byte message through a Unix stream socket pair",
	  stream_setup, messages, channel_teardown },
	{ "tcp_test", "a 512-byte message through a TCP connection on 127.0.0.1",
	  tcp_setup, messages, channel_teardown },
	{ "udp_test", "a 512-byte datagram through UDP on 127.0.0.1",
	  udp_setup, messages, channel_teardown },
	{ NULL },
};
