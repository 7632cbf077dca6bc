"""The ground floor: what every other part of kkprint stands on and which stands on nothing of
theirs — errors, the message catalogue, the user's choices and settings, safe reading (YAML,
JSON, files inside their folder) and safe writing (atomic files, output paths)."""
