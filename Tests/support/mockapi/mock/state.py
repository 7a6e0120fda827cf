"""The mock's state, shared by both listeners: its settings (what POST /__control sets) and its
counts (what GET /__stats reports). One lock guards both, the draws of the random faults too."""
import dataclasses, json, random, threading


@dataclasses.dataclass(frozen=True)
class Config:
    """The settings one request is answered with: a snapshot, so that a control request that
    comes in meanwhile does not change an answer halfway. The fields, their order and their
    defaults are /__control's (mock_pokeapi.py's docstring says what each does)."""
    latency_ms: float = 0
    latency_prefix: str = ""
    offline: bool = False
    fail_status: int = 0
    max_age: object = 86400       # written verbatim: a string as it is, a number as JSON spells it
    evil_sprite: bool = False
    retry_after: int = 0
    fail_count: object = None     # None: every request fails while fail_status is set
    total: int = 0
    fault_500: float = 0.0
    fault_cut: float = 0.0
    fault_429: float = 0.0
    seed: int = 1
    redirect_sprites: str = ""
    sprite_base: str = ""
    sprite_host_offline: bool = False
    oversize: dict = dataclasses.field(default_factory=dict)
    oversize_no_length: bool = False
    cache_control: str = ""
    hostile: bool = False
    huge_sprites: int = 0
    no_sprite: list = dataclasses.field(default_factory=list)
    hold_prefix: str = ""


FIELDS = [f.name for f in dataclasses.fields(Config)]


class Settings:
    """What /__control sets: any JSON object's keys, kept (and echoed back) in the order they
    came, Config's first; a request reads a Config snapshot of them."""

    def __init__(self, lock):
        self.lock = lock
        self.values = dataclasses.asdict(Config())
        self.rng = random.Random(1)

    def update(self, data):
        with self.lock:
            self.values.update(data)
            if "seed" in data:
                self.rng.seed(data["seed"])

    def snapshot(self):
        with self.lock:
            return Config(**{k: self.values[k] for k in FIELDS})

    def to_json(self):
        return json.dumps(self.values).encode()

    def current(self, key):
        """A setting as it is now, not as a request's snapshot has it (hold_prefix's release)."""
        with self.lock:
            return self.values[key]

    def draw(self):
        with self.lock:
            return self.rng.random()

    def take_failure(self):
        """fail_count: whether this request is one of the N that fail (and one fewer is left)."""
        with self.lock:
            failing = self.values["fail_count"] > 0
            self.values["fail_count"] -= 1 if failing else 0
            return failing


class Stats:
    """GET /__stats's counts. in_flight is the live count of GETs being answered: reset() leaves it."""

    def __init__(self, lock):
        self.lock = lock
        self.counts = {}
        self.in_flight = 0
        self.reset()

    def reset(self):
        with self.lock:
            self.counts.clear()
            self.counts.update({"requests": 0, "by_kind": {}, "gzip": 0, "not_modified": 0, "connections": 0,
                                "user_agents": [], "if_none_match": 0, "faults": {"500": 0, "cut": 0, "429": 0},
                                "abandoned": 0, "held": 0, "by_listener": {"api": 0, "sprites": 0},
                                "in_flight": self.in_flight, "max_in_flight": 0,
                                "hostile": {"oversized": 0, "endless": 0, "endless_gone": 0, "gzip_bomb": 0,
                                            "png_bomb": 0, "gif_lie": 0}})

    def to_json(self):
        with self.lock:
            return json.dumps(self.counts).encode()

    def bump(self, *keys):
        """One more of counts[keys[0]][keys[1]]…"""
        with self.lock:
            where = self.counts
            for k in keys[:-1]:
                where = where[k]
            where[keys[-1]] += 1

    def request(self, kind, listener, user_agent, if_none_match):
        """A GET the API answers (control and stats aside): counted, and in flight until done()."""
        with self.lock:
            c = self.counts
            c["requests"] += 1
            c["by_kind"][kind] = c["by_kind"].get(kind, 0) + 1
            if user_agent not in c["user_agents"]:
                c["user_agents"].append(user_agent)
            if if_none_match:
                c["if_none_match"] += 1
            c["by_listener"][listener] += 1
            self.in_flight += 1
            c["in_flight"] = self.in_flight
            c["max_in_flight"] = max(c["max_in_flight"], self.in_flight)

    def done(self):
        with self.lock:
            self.in_flight -= 1
            self.counts["in_flight"] = self.in_flight


class Mock:
    """Everything both listeners share."""

    def __init__(self):
        lock = threading.Lock()
        self.settings = Settings(lock)
        self.stats = Stats(lock)
