"""The OpenAPI document (``/api/openapi.json``) is the truth about the API: schemathesis,
run against a real ``thousand serve``, finds no failure on any route (every check: no
500, every status and header documented, bodies as declared, schema-valid requests
accepted, invalid ones refused, ``Allow`` on a 405).

Kept lean (a few examples an operation, more in the deep run; one worker) so the run takes
well under a minute.
Where a request that fits the schema may still be refused for what no JSON schema can say,
the run is told so, per route, below (:data:`CONFIG`): the rules of a new table are
checked by the engine (a preset's options that do not go together: 422, the number of
seats the rules want: 400), a record by replaying it (400), a person's name by the name
rules of server/names.py (its characters, its letters, an account's look-alike: 400 or
409, at sign-up, at a seat, in quick play); the routes of e-mail and recovery answer 503
without ``--smtp`` (this one has it, to an SMTP server on loopback), 401 to a guest,
400 to what is no address or link; the routes of Web Push (on: this one has a VAPID key)
401 to a guest, 400 to an endpoint that is no push service's.
Nothing else is allowed: the lengths,
enumerations and ranges the routes check (a name's 32 characters, a password's 8 to 128,
quick play's presets, bot levels, clock and wait, the leaderboard's families) are stated
in the document (issue 27).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from depth import examples
from http_client import HTTP
from push_box import vapid_pem
from smtp_box import serve_mailing, smtp_server

#: What the engine refuses that a schema cannot describe, per route (see the docstring).
CONFIG = """
[[operations]]
include-name = "POST /api/tables"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "422", "429"]

[[operations]]
include-name = "POST /api/replay"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400"]

[[operations]]
include-name = "POST /api/tables/{table_id}/seats/{seat}"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "403", "404", "409"]

[[operations]]
include-name = "POST /api/account/signup"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "409", "429"]

[[operations]]
include-name = "POST /api/quickplay"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "403", "409", "503"]

[[operations]]
include-name = "POST /api/tournaments"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "409", "429"]

[[operations]]
include-name = "POST /api/tournaments/{tid}/register"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "404", "409"]

[[operations]]
include-name = "POST /api/account/forgot"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "429", "503"]

[[operations]]
include-name = "POST /api/account/reset"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "429", "503"]

[[operations]]
include-name = "POST /api/account/email/verify"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "409", "429", "503"]

[[operations]]
include-name = "POST /api/account/email"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "429", "503"]

[[operations]]
include-name = "GET /api/account/email"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "503"]

[[operations]]
include-name = "DELETE /api/account/email"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "503"]

[[operations]]
include-name = "POST /api/push/subscription"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "429"]

[[operations]]
include-name = "DELETE /api/push/subscription"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "429"]
"""


#: Examples an operation in the fuzzing phase (the examples and coverage phases come on
#: top of them, whatever the count): the deep run draws more.
EXAMPLES = examples(3, 8)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # bots that wait before they move: the tables schemathesis lays cost nothing;
    # the letters go to a real SMTP server on loopback (e-mail and recovery on); a VAPID
    # key: Web Push on
    folder = tmp_path_factory.mktemp("contract")
    (folder / "vapid.pem").write_bytes(vapid_pem())
    with smtp_server() as box, serve_mailing(
            folder, box, "--bot-delay", "10", "--vapid-private-key", str(folder / "vapid.pem"),
            "--vapid-subject", "mailto:admin@example.org") as url:
        yield url


def test_the_document_declares_bodies_and_errors(base: str) -> None:
    doc = HTTP.get(base + "/api/openapi.json", timeout=30).json()
    create = doc["paths"]["/api/tables"]["post"]
    schema = create["requestBody"]["content"]["application/json"]["schema"]
    assert schema["$ref"].endswith("/CreateTable")
    assert create["requestBody"]["required"] is True
    body = doc["components"]["schemas"]["CreateTable"]
    assert body["additionalProperties"] is False
    for status in ("201", "400", "413", "422", "503"):
        assert status in create["responses"], status
    assert "HTTPValidationError" not in doc["components"]["schemas"]


def test_schemathesis_finds_no_failure(base: str, tmp_path: Path) -> None:
    st = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    assert st is not None, "schemathesis is in the dev extra (pyproject.toml)"
    config = tmp_path / "schemathesis.toml"
    config.write_text(CONFIG)
    run = subprocess.run(
        [st, "--config-file", str(config), "run", base + "/api/openapi.json",
         "--checks", "all", "--max-examples", str(EXAMPLES), "--workers", "1", "--seed", "1",
         "--phases", "examples,coverage,fuzzing", "--request-timeout", "20",
         "--suppress-health-check", "all", "--no-color"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out[-6000:]
    assert "Tested:" in out
