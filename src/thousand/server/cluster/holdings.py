"""What clients hold at once, added up over many workers in Redis (server/holdings.py;
docs/server.md "Many workers").

Each worker writes its own counts — the live tables it holds for each client and
address, the table WebSockets open on it, its live tables — into a hash of its own,
``{prefix}:held:w:<worker>`` (field ``<name>|<who>``), and names itself in the set
``{prefix}:held:workers``.  A worker asks, in one Lua script (so two workers asking at
once cannot both take the last place), whether the others' counts and its own new one
stay within the limit, and writes its new count in the same step.  Its whole hash is
written again every ``min(1, ttl/4)`` seconds, and soon after something was let go, with
the lease's time to live (``--lease-ttl``): a worker killed stops renewing it, and its
counts are gone within that time (the worker taking its tables over counts them as its
own only from then: docs/server.md).  A worker stopping deletes its hash at once.

When Redis does not answer, a worker judges by its own counts alone (as one process
does) rather than refusing everybody: the bus is down for a moment at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from ..holdings import LocalHoldings, Snapshot, Want

__all__ = ["RedisHoldings"]

log = logging.getLogger("thousand.server")

# KEYS: the workers' set, this worker's hash; ARGV: this worker, the hash's time to live
# (ms), the hashes' prefix, then (field, this worker's count, the most) for each key.
# The answer: 0, or the place (from 1) of the first key over its most.
_TAKE = """
local workers = redis.call('SMEMBERS', KEYS[1])
local n = (#ARGV - 3) / 3
for i = 0, n - 1 do
  local field = ARGV[4 + 3 * i]
  local total = tonumber(ARGV[5 + 3 * i])
  for _, w in ipairs(workers) do
    if w ~= ARGV[1] then
      local got = redis.call('HGET', ARGV[3] .. w, field)
      if got then total = total + tonumber(got) end
    end
  end
  if total > tonumber(ARGV[6 + 3 * i]) then return i + 1 end
end
for i = 0, n - 1 do
  redis.call('HSET', KEYS[2], ARGV[4 + 3 * i], ARGV[5 + 3 * i])
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[1], ARGV[1])
return 0
"""

# KEYS, ARGV[1..3] as _TAKE's, then (field, count) pairs: this worker's counts, all of
# them; the workers whose hash expired leave the set.
_SYNC = """
redis.call('DEL', KEYS[2])
for i = 4, #ARGV, 2 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
end
if #ARGV > 3 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
redis.call('SADD', KEYS[1], ARGV[1])
for _, w in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if w ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. w) == 0 then
    redis.call('SREM', KEYS[1], w)
  end
end
return 0
"""

# KEYS[1]: the workers' set; ARGV: this worker, the hashes' prefix, then the fields.
# The answer: the other workers' count of each field.
_ELSEWHERE = """
local workers = redis.call('SMEMBERS', KEYS[1])
local totals = {}
for i = 3, #ARGV do
  local total = 0
  for _, w in ipairs(workers) do
    if w ~= ARGV[1] then
      local got = redis.call('HGET', ARGV[2] .. w, ARGV[i])
      if got then total = total + tonumber(got) end
    end
  end
  totals[#totals + 1] = total
end
return totals
"""


def _field(name: str, who: str) -> str:
    return f"{name}|{who}"


class RedisHoldings:
    """This worker's counts in Redis beside every other worker's (:class:`Holdings`)."""

    def __init__(self, redis_url: str, *, prefix: str, worker: str, ttl: float) -> None:
        self.redis = aioredis.from_url(redis_url, decode_responses=True,
                                       socket_connect_timeout=2, socket_timeout=5)
        self.me = worker
        self.hashes = f"{prefix}:held:w:"
        self.keys = [f"{prefix}:held:workers", self.hashes + worker]
        self.ttl_ms = max(1000, int(ttl * 1000))
        self.every = min(1.0, ttl / 4)
        self._take = self.redis.register_script(_TAKE)
        self._sync = self.redis.register_script(_SYNC)
        self._elsewhere = self.redis.register_script(_ELSEWHERE)
        self._local = LocalHoldings()
        self._snapshot: Snapshot | None = None
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._down = False

    def _failed(self, e: Exception) -> None:
        if not self._down:
            log.warning("worker %s: Redis does not keep the held counts (%s); judging by "
                        "this worker's own until it does", self.me, e)
        self._down = True

    async def take(self, name: str, wants: Sequence[Want]) -> str | None:
        args: list[str | int] = [self.me, self.ttl_ms, self.hashes]
        for who, mine, most in wants:
            args += [_field(name, who), mine, most]
        try:
            over = int(await self._take(keys=self.keys, args=args))
        except (RedisError, OSError) as e:
            self._failed(e)
            return await self._local.take(name, wants)
        self._down = False
        return None if over == 0 else wants[over - 1][0]

    async def elsewhere(self, name: str, whos: Sequence[str]) -> list[int]:
        if not whos:
            return []
        args = [self.me, self.hashes, *(_field(name, who) for who in whos)]
        try:
            got = await self._elsewhere(keys=self.keys[:1], args=args)
        except (RedisError, OSError) as e:
            self._failed(e)
            return [0] * len(whos)
        return [int(n) for n in got]

    def changed(self) -> None:
        self._changed.set()

    async def sync(self) -> None:
        """Write this worker's counts, all of them, as they are now."""
        assert self._snapshot is not None
        args: list[str | int] = [self.me, self.ttl_ms, self.hashes]
        for (name, who), n in self._snapshot().items():
            if n > 0:
                args += [_field(name, who), n]
        await self._sync(keys=self.keys, args=args)

    async def start(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot
        with contextlib.suppress(RedisError, OSError):
            await self.sync()
        self._task = asyncio.create_task(self._keep())

    async def _keep(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self.every)
            self._changed.clear()
            try:
                await self.sync()
                self._down = False
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as e:
                self._failed(e)
                await asyncio.sleep(0.5)
            except Exception:
                log.exception("worker %s: the held counts could not be written", self.me)
                await asyncio.sleep(self.every)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(self.keys[1])
        with contextlib.suppress(Exception):
            await self.redis.aclose()
