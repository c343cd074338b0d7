"""Summarises a schemathesis NDJSON report: requests per operation and the statuses they got.

Usage: python summarize.py REPORT.ndjson
"""
import base64
import collections
import json
import sys


def main(path: str) -> None:
    statuses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    modes: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    with open(path, encoding="utf-8") as report:
        for line in report:
            event = json.loads(line)
            scenario = event.get("ScenarioFinished")
            if not scenario:
                continue
            recorder = scenario["recorder"]
            for case_id, interaction in recorder.get("interactions", {}).items():
                case = recorder.get("cases", {}).get(case_id, {}).get("value", {})
                label = f'{case.get("method", interaction["request"]["method"])} {case.get("path", "?")}'
                response = interaction.get("response")
                status = response["status_code"] if response else "no response"
                statuses[label][status] += 1
                mode = case.get("meta", {}).get("generation", {}).get("mode", "?")
                modes[label][mode] += 1
    total = 0
    width = max((len(label) for label in statuses), default=10)
    for label in sorted(statuses):
        count = sum(statuses[label].values())
        total += count
        codes = ", ".join(f"{code}×{n}" for code, n in sorted(statuses[label].items(), key=lambda item: str(item[0])))
        kinds = "/".join(f"{n} {mode}" for mode, n in sorted(modes[label].items()))
        print(f"{label:<{width}}  {count:>5}  ({kinds})  {codes}")
    print(f"{len(statuses)} operations, {total} requests")


if __name__ == "__main__":
    main(sys.argv[1])
