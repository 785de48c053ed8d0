#!/usr/bin/env bash
# rigid2d-bench from the command line, as the comparison script and users run it.
#   bench_commands.sh BENCH SCENES_DIR WORK_DIR churn|scene|joints|snapshot|threads|bad-scene
# churn:     every broad phase finds exactly the overlaps every peer finds (BROADPHASE.md's
#            N = 10000 over 100 frames: 341445), told the boxes by moveMany (the grid also by
#            one move each)
# scene:     a shared scene file runs, repeats, writes its report and a final state of every body
# joints:    a public scene with joints runs, reports its joint error and lists every joint's
#            reaction in the final state
# snapshot:  --snapshot-at (save, destroy, restore, run on) ends in the uninterrupted final state,
#            on the public scenes the engine builds, on every broad phase
# threads:   --threads 2, 3 and 8 end in the final state of --threads 1 on the large public scenes
# bad-scene: a refused scene file exits 1 with a message naming the body and the field
set -euo pipefail
bench="$1" scenes="$2" work="$3" what="$4"
mkdir -p "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }

case "$what" in
  churn)
    for bp in brute_force grid spatial_hash sap tree hierarchical_hash quadtree sorted_grid auto; do
      # One move each is the path every conformance test takes; here once, on the grid.
      for moves in batch $([ "$bp" = grid ] && echo each); do
        line=$("$bench" churn --broadphase "$bp" --n 10000 --frames 100 --moves "$moves")
        echo "$line"
        grep -q '"overlaps": 341445,' <<<"$line" || fail "$bp, $moves: overlap total is not 341445"
        grep -q "\"moves\": \"$moves\"" <<<"$line" || fail "$bp: report does not say --moves $moves"
      done
    done
    ;;
  scene)
    "$bench" scene --scene "$scenes/newtons_cradle_5.json" --broadphase tree --steps 120 \
      --repeat 3 --final-state "$work/final.json" --json-out "$work/report.json" >"$work/stdout"
    cat "$work/stdout"
    cmp -s "$work/stdout" "$work/report.json" || fail "--json-out differs from stdout"
    for field in '"engine": "rigid2d"' '"scene": "newtons_cradle_5"' '"broadphase": "tree"' \
                 '"steps": 120' '"ms_per_step": {"median": ' '"awake_dynamic_bodies": ' \
                 '"peak_rss_kb": ' '"repeat": {"runs": 3'; do
      grep -qF "$field" "$work/stdout" || fail "report lacks $field"
    done
    bodies=$(grep -o '"bodies": [0-9]*' "$work/stdout" | grep -o '[0-9]*')
    [ "$(grep -o '"position"' "$work/final.json" | wc -l)" -eq "$bodies" ] ||
      fail "final state does not hold all $bodies bodies"
    ;;
  joints)
    "$bench" scene --scene "$scenes/v3_tumbler.json" --steps 30 --final-state "$work/final.json" \
      >"$work/stdout"
    cat "$work/stdout"
    grep -qE '"joint_error": \{"joints": 1, "nonfinite": 0, "final_max": [0-9.e-]+, ' "$work/stdout" ||
      fail "report lacks a finite joint_error over the scene's one joint"
    grep -q '"max_over_run": ' "$work/stdout" || fail "report lacks the joint error over the run"
    joints=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["joints"]))' \
      "$scenes/v3_tumbler.json")
    [ "$(grep -o '"reaction_force"' "$work/final.json" | wc -l)" -eq "$joints" ] ||
      fail "final state does not list the reaction of all $joints joints"
    ;;
  snapshot)
    # Every broad phase on every public scene the engine builds: the restored run must end
    # where the uninterrupted one does.
    # v3_tumbler has a joint: its id is re-made after the restore and its reaction is written.
    for run in "newtons_cradle_5 300 150" "box_pyramid_100 90 45" "circle_rain_10000 60 31" \
               "v3_tumbler 30 15"; do
      read -r scene steps at <<<"$run"
      [ -f "$scenes/$scene.json" ] || fail "no scene $scene"
      for bp in brute_force grid spatial_hash sap tree hierarchical_hash quadtree sorted_grid auto; do
        "$bench" scene --scene "$scenes/$scene.json" --broadphase "$bp" --steps "$steps" \
          --final-state "$work/straight.json" >/dev/null
        line=$("$bench" scene --scene "$scenes/$scene.json" --broadphase "$bp" --steps "$steps" \
          --snapshot-at "$at" --final-state "$work/restored.json")
        field=$(grep -o '"snapshot": {[^}]*}' <<<"$line") || fail "$scene: no snapshot field"
        echo "$scene $bp $field"
        for key in snapshot_ms snapshot_reused_ms restore_ms step_median_ms; do
          grep -qE "\"$key\": [0-9]+\.[0-9]+" <<<"$field" || fail "$scene: the snapshot field lacks $key"
        done
        cmp -s "$work/straight.json" "$work/restored.json" ||
          fail "$scene on $bp: the restored run ends elsewhere than the uninterrupted one"
      done
    done
    ;;
  threads)
    for run in "circle_rain_10000 60 spatial_hash" "v3_large_pyramid 60 spatial_hash" \
               "v3_many_pyramids 20 sorted_grid" "v3_smash 60 tree" "box_pyramid_100 90 sap"; do
      read -r scene steps bp <<<"$run"
      [ -f "$scenes/$scene.json" ] || fail "no scene $scene"
      "$bench" scene --scene "$scenes/$scene.json" --broadphase "$bp" --steps "$steps" \
        --final-state "$work/serial.json" >/dev/null
      for n in 2 3 8; do
        line=$("$bench" scene --scene "$scenes/$scene.json" --broadphase "$bp" --steps "$steps" \
          --threads "$n" --final-state "$work/threaded.json")
        grep -qF "\"threads\": $n" <<<"$line" || fail "$scene: the report does not say $n threads"
        echo "$scene $bp threads $n: $(grep -o '"median": [0-9.]*' <<<"$line")"
        cmp -s "$work/serial.json" "$work/threaded.json" ||
          fail "$scene on $bp: $n threads end elsewhere than one"
      done
    done
    ;;
  bad-scene)
    cat >"$work/bad.json" <<'JSON'
{"format": "rigid2d-scene", "version": 1, "bodies": [
  {"type": "static", "position": [0, 0], "shapes": [{"kind": "box", "half_extents": [5, 1]}]},
  {"position": [0, 3], "shapes": [{"kind": "circle", "radius": -1}]}]}
JSON
    set +e
    "$bench" scene --scene "$work/bad.json" 2>"$work/stderr"
    code=$?
    set -e
    cat "$work/stderr"
    [ "$code" -eq 1 ] || fail "exit code $code, expected 1"
    grep -q 'body 1' "$work/stderr" && grep -q 'radius' "$work/stderr" ||
      fail "the message does not name body 1 and its radius"
    ;;
  *) fail "unknown check '$what'" ;;
esac
