"""Checks openapi.yaml before the live run: a valid OpenAPI 3.0 document whose every example
(request bodies, responses, parameters, components) matches its schema, and whose enums of
problem types name each value the same everywhere (`x-enum-varnames`: a generated client that
names them by position instead drops every problem model that narrows the type).

Usage: python check_spec.py openapi.yaml
"""
import copy
import sys

import jsonschema
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename


def to_json_schema(schema):
    """OpenAPI 3.0 schema objects to JSON Schema: `nullable` becomes a `null` alternative."""
    if isinstance(schema, list):
        return [to_json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: to_json_schema(value) for key, value in schema.items()
           if key not in ("nullable", "example", "discriminator", "xml", "externalDocs", "deprecated")}
    if schema.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def resolve(spec, node):
    while isinstance(node, dict) and "$ref" in node:
        target = spec
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def main(path):
    spec, _ = read_from_filename(path)
    validate(spec)
    root = {"components": {"schemas": to_json_schema(copy.deepcopy(spec["components"]["schemas"]))}}
    checked = 0
    failures = []

    def check(where, schema, value):
        nonlocal checked
        checked += 1
        full = dict(to_json_schema(schema))
        full["components"] = root["components"]
        validator = jsonschema.Draft4Validator(full, format_checker=jsonschema.FormatChecker())
        for error in validator.iter_errors(value):
            failures.append(f"{where}: {error.message} at {list(error.absolute_path)}")

    def media(where, content):
        for media_type, definition in (content or {}).items():
            definition = resolve(spec, definition)
            schema = definition.get("schema")
            if schema is None:
                continue
            if "example" in definition:
                check(f"{where} {media_type} example", schema, definition["example"])
            for name, example in (definition.get("examples") or {}).items():
                example = resolve(spec, example)
                check(f"{where} {media_type} examples/{name}", schema, example["value"])

    for route, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            where = f"{method.upper()} {route}"
            for parameter in operation.get("parameters", []) + item.get("parameters", []):
                parameter = resolve(spec, parameter)
                if "example" in parameter:
                    check(f"{where} parameter {parameter['name']}", parameter["schema"], parameter["example"])
            if "requestBody" in operation:
                media(f"{where} request", resolve(spec, operation["requestBody"]).get("content"))
            for status, response in operation["responses"].items():
                media(f"{where} {status}", resolve(spec, response).get("content"))
    for name, schema in spec["components"]["schemas"].items():
        if "example" in schema:
            check(f"components/schemas/{name} example", schema, schema["example"])
    failures += enum_name_failures(spec)
    for failure in failures:
        print("openapi.yaml:", failure, file=sys.stderr)
    print(f"openapi.yaml: valid OpenAPI {spec['openapi']}; {checked} examples checked, enum names checked; "
          f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


def enum_name_failures(spec):
    """Every enum with `x-enum-varnames` has a name per value; a problem type has the same name in
    `Problem` and in each `ProblemNNN` that narrows it, and `Problem` names every type."""
    failures = []

    def walk(where, node):
        if isinstance(node, dict):
            if "x-enum-varnames" in node and len(node["x-enum-varnames"]) != len(node.get("enum", [])):
                failures.append(f"{where}: x-enum-varnames has {len(node['x-enum-varnames'])} names "
                                f"for {len(node.get('enum', []))} values")
            for key, value in node.items():
                walk(f"{where}/{key}", value)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(f"{where}/{index}", value)

    walk("#", spec)
    schemas = spec["components"]["schemas"]
    base = schemas["Problem"]["properties"]["type"]
    if "x-enum-varnames" not in base:
        failures.append("components/schemas/Problem/properties/type: no x-enum-varnames")
        return failures
    named = dict(zip(base["enum"], base["x-enum-varnames"]))
    for name, schema in schemas.items():
        for part in schema.get("allOf", []):
            narrowed = part.get("properties", {}).get("type")
            if not narrowed or "$ref" in part:
                continue
            names = narrowed.get("x-enum-varnames", [])
            for value, varname in zip(narrowed.get("enum", []), names or [None] * len(narrowed.get("enum", []))):
                if value not in named:
                    failures.append(f"components/schemas/{name}: type {value} is not one of Problem's")
                elif varname != named[value]:
                    failures.append(f"components/schemas/{name}: type {value} is named {varname}, "
                                    f"{named[value]} in Problem")
    return failures


if __name__ == "__main__":
    main(sys.argv[1])
