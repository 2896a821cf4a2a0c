#!/bin/sh
# Make sure PostgreSQL (127.0.0.1:5432, trust auth) and Redis (127.0.0.1:6379) answer: the tests use
# the real servers.  Starts them when they are installed but stopped (as on this project's machines);
# says how to get them otherwise.
set -eu

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
        echo "starting PostgreSQL"
        pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    fi
    for i in 1 2 3 4 5 6 7 8 9 10; do pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && break; sleep 1; done
    pg_isready -q -h 127.0.0.1 -p 5432 || {
        echo "error: PostgreSQL is not answering on 127.0.0.1:5432; install and start it (trust auth for" >&2
        echo "       user postgres on loopback), e.g. apt-get install -y postgresql" >&2
        exit 1
    }
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    if command -v redis-server >/dev/null 2>&1; then
        echo "starting Redis"
        redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
            --dir /tmp --logfile /tmp/majiang-redis.log
        for i in 1 2 3 4 5; do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 1; done
    fi
    redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || {
        echo "error: Redis is not answering on 127.0.0.1:6379; install and start it (apt-get install -y redis-server)" >&2
        exit 1
    }
fi
echo "PostgreSQL and Redis answer on 127.0.0.1"
