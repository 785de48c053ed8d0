#!/usr/bin/env python3
"""Generates the benchmark scene files (demos/bench/FORMAT.md) into a folder.

    generate.py OUT_DIR [NAME ...]      all scenes, or only the named ones (without .json)
    generate.py OUT_DIR circle_rain_50000   the large rain, written only when named

Deterministic: every coordinate is a closed-form lattice or a fixed sequence of float operations,
so the files are byte-for-byte the same on every machine and match the published public scenes
(demos/bench/scenes/SHA256SUMS lists their hashes; the test `bench.scenes-match` checks them).
The order of keys, which numbers are rounded to 6 decimals and which are written as integers are
part of the files' identity: change them and every hash changes.

Version-1 scenes: circle rain, box pyramid, Newton's cradle. Version-2 scenes (v3_*): ports of the
scenes of Box2D v3's benchmark suite (sizes, counts and settings taken from it as data; see each
builder's docstring for what the format cannot express and what was done instead).
"""
import json
import math
import os
import sys


def rounded(value):
    """Positions and sizes are written with at most 6 decimals (ints stay ints)."""
    return round(value, 6)


def pair(x, y):
    return [rounded(x), rounded(y)]


# --- shapes -------------------------------------------------------------------------------------

def box_shape(cx, cy, hx, hy, **material):
    return {"kind": "box", "center": pair(cx, cy), "half_extents": pair(hx, hy), **material}


def circle_shape(radius, **material):
    return {"kind": "circle", "radius": rounded(radius), **material}


def polygon_shape(points, radius=0.0, **material):
    shape = {"kind": "polygon", "vertices": [pair(x, y) for x, y in points]}
    if radius:
        shape["radius"] = rounded(radius)
    shape.update(material)
    return shape


def capsule_shape(c1, c2, radius, **material):
    return {"kind": "capsule", "center1": pair(*c1), "center2": pair(*c2), "radius": rounded(radius),
            **material}


def segment_shape(p1, p2, **material):
    return {"kind": "segment", "point1": pair(*p1), "point2": pair(*p2), **material}


# --- bodies, joints, scenes ---------------------------------------------------------------------

def make_body(body_type, x, y, shapes, **extra):
    return {"type": body_type, "position": pair(x, y), "shapes": shapes, **extra}


def ground_body(shapes):
    """A static body at the origin (version-1 scenes write its position as floats, unrounded)."""
    return {"type": "static", "position": [0.0, 0.0], "shapes": shapes}


def revolute_joint(a, b, anchor, **settings):
    return {"type": "revolute", "body_a": a, "body_b": b, "anchor": pair(*anchor), **settings}


def make_scene(version, name, bodies, joints=(), steps=600, gravity=(0.0, -10.0),
               lower=(-110, -10), upper=(110, 400)):
    scene = {"format": "rigid2d-scene", "version": version, "name": name,
             "gravity": list(gravity), "time_step": 1.0 / 60.0, "steps": steps,
             "bounds": {"lower": list(lower), "upper": list(upper)}, "bodies": bodies}
    if joints:
        scene["joints"] = list(joints)
    return scene


# --- version 1 ----------------------------------------------------------------------------------

def open_box(half_width, height, wall=1.0):
    """Ground and two walls; the inside spans x in [-half_width, half_width] and y >= 0."""
    side_y, side_h = height / 2, height / 2 + wall
    return ground_body([box_shape(0.0, -wall, half_width + 2 * wall, wall),
                        box_shape(-half_width - wall, side_y, wall, side_h),
                        box_shape(half_width + wall, side_y, wall, side_h)])


def circle_rain(count=10000, per_row=160, half_width=100.0):
    """Circles of radius 0.5 on a staggered lattice 1.2 m apart, from 20 m up into a box
    2 * half_width wide."""
    bodies = [open_box(half_width, 300.0)]
    for index in range(count):
        row, column = divmod(index, per_row)
        x = -(half_width - 4.0) + column * 1.2 + (row % 2) * 0.6
        bodies.append(make_body("dynamic", x, 20.0 + row * 1.2, [circle_shape(0.5, friction=0.6)]))
    return make_scene(1, f"circle_rain_{count}", bodies)


def box_pyramid(base=100, gap=0.05):
    """Unit boxes stacked `base` rows high, each row centred, 5 cm apart, on a wide ground box."""
    pitch = 1.0 + gap
    bodies = [ground_body([box_shape(0.0, -1.0, base + 10.0, 1.0)])]
    for row in range(base):
        in_row = base - row
        for k in range(in_row):
            x = (k - (in_row - 1) / 2.0) * pitch
            bodies.append(make_body("dynamic", x, 0.5 + row * 1.0,
                                    [box_shape(0.0, 0.0, 0.5, 0.5, friction=0.6)]))
    reach = base * pitch / 2 + 20
    return make_scene(1, f"box_pyramid_{base}", bodies, steps=500,
                      lower=(-reach, -10), upper=(reach, base + 20))


def newtons_cradle(balls=5):
    """Elastic frictionless balls in a row; the first starts 5 m back, moving at 5 m/s."""
    bodies = [ground_body([box_shape(0.0, -1.0, 50.0, 1.0, friction=0.0)])]
    for i in range(balls):
        first = i == 0
        x = -10.0 + i * 1.0 + (-5.0 if first else 0)
        bodies.append(make_body("dynamic", x, 0.5,
                                [circle_shape(0.5, friction=0.0, restitution=1.0)],
                                velocity=[5.0 if first else 0.0, 0.0]))
    return make_scene(1, f"newtons_cradle_{balls}", bodies, steps=300, lower=(-60, -10),
                      upper=(60, 50))


# --- version 2: Box2D v3's benchmark scenes -----------------------------------------------------
# Box2D v3's defaults, which are also the format's: density 1, friction 0.6, restitution 0.
# Where v3 turns sleeping off for the whole world, each body says "allow_sleep": false.

def stacked_triangle(rows, half, left_x, floor_y, **extra):
    """Box2D v3's pyramid: row r (0 at the bottom) holds rows - r boxes of half extent `half`
    touching side by side, centred at height floor_y + (2 r + 1) half, the first at
    left_x + (r + 1) half."""
    boxes = []
    for r in range(rows):
        y = (2 * r + 1) * half + floor_y
        for j in range(r, rows):
            x = left_x + (r + 1) * half + 2.0 * (j - r) * half
            boxes.append(make_body("dynamic", x, y, [box_shape(0.0, 0.0, half, half)], **extra))
    return boxes


def v3_large_pyramid(rows=100):
    """5050 unit boxes in one pyramid on a 200 m ground box; no sleeping; 500 steps."""
    bodies = [make_body("static", 0.0, -1.0, [box_shape(0.0, 0.0, 100.0, 1.0)])]
    bodies += stacked_triangle(rows, 0.5, -0.5 * rows, 0.0, allow_sleep=False)
    return make_scene(2, "v3_large_pyramid", bodies, steps=500, lower=(-120, -10), upper=(120, 120))


def v3_many_pyramids(shelves=20, per_shelf=20, rows=10):
    """400 pyramids of 10 rows (22 000 boxes) on 20 two-sided ground segments 11 m apart, all on
    one static body; no sleeping; 200 steps."""
    half = 0.5
    shelf_gap = 2.0 * half * (rows + 1.0)
    width = 2.0 * half * per_shelf * (rows + 1.0)
    shelves_body = make_body("static", 0.0, 0.0,
                             [segment_shape((-0.5 * width, s * shelf_gap), (0.5 * width, s * shelf_gap))
                              for s in range(shelves)])
    bodies = [shelves_body]
    pyramid_width = 2.0 * half * rows
    for s in range(shelves):
        for p in range(per_shelf):
            centre = -0.5 * width + p * (pyramid_width + 2.0 * half) + 2.0 * half
            bodies += stacked_triangle(rows, half, centre - 0.5, s * shelf_gap, allow_sleep=False)
    return make_scene(2, "v3_many_pyramids", bodies, steps=200,
                      lower=(-0.5 * width - 20, -10), upper=(0.5 * width + 20, shelves * shelf_gap + 20))


def v3_joint_grid(side=100):
    """A 100 x 100 net of circles (radius 0.4, 1 m apart) joined by revolute joints to the
    neighbour above and to the left; the 7 top circles of the middle columns are static; circles
    never collide with each other; no sleeping; 500 steps. v3's 6 joints between two static
    circles do nothing and the format refuses them: 19 794 joints instead of 19 800."""
    no_self = {"category": 2, "mask": 0xFFFFFFFF & ~2, "group": 0}
    bodies, joints = [], []
    for column in range(side):
        for depth in range(side):
            pinned = depth == 0 and side // 2 - 3 <= column <= side // 2 + 3
            index = len(bodies)
            circle = make_body("static" if pinned else "dynamic", float(column), float(-depth),
                               [circle_shape(0.4, filter=no_self)])
            if not pinned:
                circle["allow_sleep"] = False
            bodies.append(circle)
            if depth > 0:
                joints.append(revolute_joint(index - 1, index, (column, -depth + 0.5)))
            left_pinned = bodies[index - side]["type"] == "static" if column > 0 else False
            if column > 0 and not (pinned and left_pinned):
                joints.append(revolute_joint(index - side, index, (column - 0.5, -depth)))
    return make_scene(2, "v3_joint_grid", bodies, joints, steps=500, lower=(-150, -250), upper=(250, 50))


def v3_tumbler(side=45):
    """A 20 m box of four 1 m walls (density 50) turned at 25 deg/s by a revolute motor (max torque
    1e8) about (0, 10), holding 45 x 45 boxes of half extent 0.125; 750 steps. v3's ground body has
    no shape; here it carries a 2 m segment 30 m below that nothing reaches."""
    walls = [box_shape(10.0, 0.0, 0.5, 10.0, density=50.0), box_shape(-10.0, 0.0, 0.5, 10.0, density=50.0),
             box_shape(0.0, 10.0, 10.0, 0.5, density=50.0), box_shape(0.0, -10.0, 10.0, 0.5, density=50.0)]
    bodies = [make_body("static", 0.0, 0.0, [segment_shape((-1.0, -30.0), (1.0, -30.0))]),
              make_body("dynamic", 0.0, 10.0, walls)]
    motor = revolute_joint(0, 1, (0.0, 10.0), enable_motor=True, motor_speed=math.radians(25.0),
                           max_motor_torque=1e8)
    for row in range(side):
        for column in range(side):
            bodies.append(make_body("dynamic", -0.2 * side + 0.4 * column, -0.2 * side + 10.0 + 0.4 * row,
                                    [box_shape(0.0, 0.0, 0.125, 0.125)]))
    return make_scene(2, "v3_tumbler", bodies, [motor], steps=750, lower=(-25, -15), upper=(25, 35))


def v3_smash(columns=120, rows=80):
    """No gravity: an 8 m box (density 8) at 40 m/s into a sleeping 120 x 80 block of 0.4 m boxes;
    300 steps."""
    bodies = [make_body("dynamic", -20.0, 0.0, [box_shape(0.0, 0.0, 4.0, 4.0, density=8.0)],
                        velocity=[40.0, 0.0])]
    size = 0.4
    for column in range(columns):
        for row in range(rows):
            bodies.append(make_body("dynamic", column * size + 30.0, (row - rows / 2.0) * size,
                                    [box_shape(0.0, 0.0, 0.5 * size, 0.5 * size)], awake=False))
    return make_scene(2, "v3_smash", bodies, steps=300, gravity=(0.0, 0.0), lower=(-1000, -1000),
                      upper=(1000, 1000))


def v3_spinner(count=2 * 3038):
    """A ring of radius 40 m (360 two-sided segments, friction 0.1; v3 uses a looped one-sided
    chain) around (0, 32); a rounded blade 0.8 x 40 m (radius 0.2, frictionless, never sleeps)
    turned at 5 rad/s by a revolute motor about (0, 12) with max torque 1e30 (v3: unlimited);
    6076 capsules, circles and squares cycling, 92 a row 0.5 m apart, overlapping at the start as
    in v3; 500 steps."""
    sides = 360
    ring_points = []
    for k in range(sides):
        turn = -2.0 * math.pi * k / sides
        ring_points.append((40.0 * math.cos(turn), 40.0 * math.sin(turn) + 32.0))
    ring = make_body("static", 0.0, 0.0, [segment_shape(ring_points[k], ring_points[(k + 1) % sides],
                                                        friction=0.1) for k in range(sides)])
    blade_outline = [(-0.4, -20.0), (0.4, -20.0), (0.4, 20.0), (-0.4, 20.0)]
    blade = make_body("dynamic", 0.0, 12.0, [polygon_shape(blade_outline, 0.2, friction=0.0)],
                      allow_sleep=False)
    motor = revolute_joint(0, 1, (0.0, 12.0), enable_motor=True, motor_speed=5.0, max_motor_torque=1e30)
    material = {"density": 0.25, "friction": 0.1, "restitution": 0.1}
    kinds = (lambda: capsule_shape((-0.25, 0.0), (0.25, 0.0), 0.25, **material),
             lambda: circle_shape(0.35, **material),
             lambda: box_shape(0.0, 0.0, 0.35, 0.35, **material))
    bodies = [ring, blade]
    x, y = -23.0, 2.0
    for i in range(count):
        bodies.append(make_body("dynamic", x, y, [kinds[i % 3]()]))
        x += 0.5
        if x >= 23.0:
            x, y = -23.0, y + 0.5
    return make_scene(2, "v3_spinner", bodies, [motor], steps=500, lower=(-45, -13), upper=(45, 77))


# Box2D v3's ragdoll (shared/human.c) at scale 1, as data. Per bone: its parent bone, the body
# position relative to the feet, linear damping, the capsule (two centres, radius), the joint pivot
# relative to the feet, the joint's angle limits in units of pi, and the scale of the joint's
# friction torque.
RAGDOLL = [
    dict(name="hip", parent=None, at=(0.0, 0.95), damping=0.0, c1=(0.0, -0.02), c2=(0.0, 0.02), radius=0.095),
    dict(name="torso", parent=0, at=(0.0, 1.2), damping=0.0, c1=(0.0, -0.135), c2=(0.0, 0.135), radius=0.09,
         pivot=(0.0, 1.0), limits=(-0.25, 0.0), torque=0.5),
    dict(name="head", parent=1, at=(0.0, 1.475), damping=0.1, c1=(0.0, -0.038), c2=(0.0, 0.039), radius=0.075,
         pivot=(0.0, 1.4), limits=(-0.3, 0.1), torque=0.25),
    dict(name="upper_left_leg", parent=0, at=(0.0, 0.775), damping=0.0, c1=(0.0, -0.125), c2=(0.0, 0.125),
         radius=0.06, pivot=(0.0, 0.9), limits=(-0.05, 0.4), torque=1.0),
    dict(name="lower_left_leg", parent=3, at=(0.0, 0.475), damping=0.0, c1=(0.0, -0.155), c2=(0.0, 0.125),
         radius=0.045, pivot=(0.0, 0.625), limits=(-0.5, -0.02), torque=0.5, foot=True),
    dict(name="upper_right_leg", parent=0, at=(0.0, 0.775), damping=0.0, c1=(0.0, -0.125), c2=(0.0, 0.125),
         radius=0.06, pivot=(0.0, 0.9), limits=(-0.05, 0.4), torque=1.0),
    dict(name="lower_right_leg", parent=5, at=(0.0, 0.475), damping=0.0, c1=(0.0, -0.155), c2=(0.0, 0.125),
         radius=0.045, pivot=(0.0, 0.625), limits=(-0.5, -0.02), torque=0.5, foot=True),
    dict(name="upper_left_arm", parent=1, at=(0.0, 1.225), damping=0.0, c1=(0.0, -0.125), c2=(0.0, 0.125),
         radius=0.035, pivot=(0.0, 1.35), limits=(-0.1, 0.8), torque=0.5),
    dict(name="lower_left_arm", parent=7, at=(0.0, 0.975), damping=0.1, c1=(0.0, -0.125), c2=(0.0, 0.125),
         radius=0.03, pivot=(0.0, 1.1), limits=(-0.2, 0.3), torque=0.1, bent=True),
    dict(name="upper_right_arm", parent=1, at=(0.0, 1.225), damping=0.0, c1=(0.0, -0.125), c2=(0.0, 0.125),
         radius=0.035, pivot=(0.0, 1.35), limits=(-0.1, 0.8), torque=0.5),
    dict(name="lower_right_arm", parent=9, at=(0.0, 0.975), damping=0.1, c1=(0.0, -0.125), c2=(0.0, 0.125),
         radius=0.03, pivot=(0.0, 1.1), limits=(-0.2, 0.3), torque=0.1, bent=True),
]
# The foot: a polygon under each lower leg, rounded by 0.015.
FOOT_OUTLINE = [(-0.03, -0.185), (0.11, -0.185), (0.11, -0.16), (-0.03, -0.14)]


def ragdoll(feet_x, feet_y, group, first_index, joint_friction=0.05, hertz=5.0, damping_ratio=0.5):
    """One ragdoll standing at the given feet position: 11 capsule bones (a rounded foot polygon on
    each lower leg), 10 revolute joints with limits, a friction motor (speed 0) and a spring. It
    never collides with itself nor with ragdolls sharing its group (group -group); feet touch only
    the ground (mask 1), friction 0.05; the rest friction 0.2.
    The lower arms start turned by pi/4 about the elbow: v3 gives the elbow a joint frame turned by
    pi/4 (its spring rests at a 45 degree bend) and starts the arm straight, outside its limits;
    the format counts limits and spring from the starting angle, so the bent start keeps v3's
    limits and rest pose."""
    bone_filter = {"category": 2, "mask": 1 | 2, "group": -group}
    foot_filter = {"category": 2, "mask": 1, "group": -group}
    bodies, joints = [], []
    for bone in RAGDOLL:
        shapes = [capsule_shape(bone["c1"], bone["c2"], bone["radius"], friction=0.2, filter=bone_filter)]
        if bone.get("foot"):
            shapes.append(polygon_shape(FOOT_OUTLINE, 0.015, friction=0.05, filter=foot_filter))
        x, y = feet_x + bone["at"][0], feet_y + bone["at"][1]
        if bone.get("bent"):
            # Turned about the elbow; the position is written unrounded (as the published files).
            angle = 0.25 * math.pi
            ex, ey = feet_x + bone["pivot"][0], feet_y + bone["pivot"][1]
            dx, dy = x - ex, y - ey
            x = ex + math.cos(angle) * dx - math.sin(angle) * dy
            y = ey + math.sin(angle) * dx + math.cos(angle) * dy
            limb = {"type": "dynamic", "position": [x, y], "shapes": shapes, "angle": angle}
        else:
            limb = make_body("dynamic", x, y, shapes)
        if bone["damping"]:
            limb["linear_damping"] = bone["damping"]
        bodies.append(limb)
        if bone["parent"] is not None:
            lower, upper = bone["limits"]
            pivot = (feet_x + bone["pivot"][0], feet_y + bone["pivot"][1])
            joints.append(revolute_joint(
                first_index + bone["parent"], first_index + len(bodies) - 1, pivot,
                enable_limit=True, lower_angle=rounded(lower * math.pi), upper_angle=rounded(upper * math.pi),
                enable_motor=True, motor_speed=0.0, max_motor_torque=rounded(bone["torque"] * joint_friction),
                enable_spring=hertz > 0.0, hertz=hertz, damping_ratio=damping_ratio))
    return bodies, joints


def v3_rain(floors=5, columns=40, per_group=5, tiles=500, tile=0.5):
    """Five floors 45 m apart, each 501 static 0.5 m boxes in a row; 1000 ragdolls in groups of 5
    (0.5 m apart), 40 groups per floor, falling from 40 m above it; 1000 steps. v3 keeps raining
    (adds a column of groups every 8 steps, later destroys and re-creates the oldest); the format
    has no creation during a run, so every ragdoll is there from the start and falls once."""
    span = tiles * tile
    ground = []
    for floor in range(floors):
        x = -0.5 * span
        for _ in range(tiles + 1):
            ground.append(box_shape(x, 45.0 * floor, 0.5 * tile, 0.5 * tile))
            x += tile
    bodies, joints = [make_body("static", 0.0, 0.0, ground)], []
    spacing = span / columns
    for floor in range(floors):
        for column in range(columns):
            x = -0.5 * span + spacing * (column + 0.5)
            for member in range(per_group):
                more_bodies, more_joints = ragdoll(x + 0.5 * member, 40.0 + 45.0 * floor, member + 1, len(bodies))
                bodies += more_bodies
                joints += more_joints
    return make_scene(2, "v3_rain", bodies, joints, steps=1000,
                      lower=(-0.5 * span - 50, -20), upper=(0.5 * span + 50, 45.0 * floors + 20))


def gather(count=3000, columns=75, half_width=240.0, pit=40.0, wall=50.0):
    """Bodies spread over a world 480 m wide, then gathered into one pile: 3000 circles and boxes
    (alternating) on a jittered lattice between 20 and 140 m up, each thrown so that it passes
    over a pit 2 * pit wide (walls `wall` high, in ground as wide as the world) 3 to 5 s later, the farther ones later; they land
    over about two seconds and settle in a heap; 720 steps. A broad phase that suits the sparse
    world in flight need not suit the pile (the scene of Auto's switching, README "Broad phase").
    The jitter is the fractional part of a multiple of the golden ratio: closed-form, so the file
    is the same on every machine."""
    golden = (math.sqrt(5.0) - 1.0) / 2.0
    rows = (count + columns - 1) // columns
    pitch_x = 2.0 * half_width / columns
    pitch_y = 120.0 / rows
    bodies = [open_box(pit, wall)]
    # Ground on both sides, for what falls short or bounces out.
    bodies[0]["shapes"].append(box_shape(0.0, -3.0, half_width + 20.0, 1.0))
    gravity = 10.0
    for index in range(count):
        row, column = divmod(index, columns)
        jitter_x = math.fmod(index * golden, 1.0) - 0.5
        jitter_y = math.fmod(index * golden * golden, 1.0) - 0.5
        x = -half_width + (column + 0.5 + 0.8 * jitter_x) * pitch_x
        y = 20.0 + (row + 0.5 + 0.8 * jitter_y) * pitch_y
        # Over the pit at (target_x, wall + 5) after `flight` seconds, still falling.
        target_x = (pit - 5.0) * (2.0 * math.fmod(index * golden * 3.0, 1.0) - 1.0)
        flight = 3.0 + 2.0 * abs(x) / half_width
        vx = (target_x - x) / flight
        vy = (wall + 5.0 - y) / flight + 0.5 * gravity * flight
        shape = (circle_shape(0.45, friction=0.4) if index % 2 == 0
                 else box_shape(0.0, 0.0, 0.4, 0.4, friction=0.4))
        bodies.append(make_body("dynamic", x, y, [shape], velocity=pair(vx, vy)))
    return make_scene(2, "gather", bodies, steps=720, lower=(-half_width - 20.0, -20.0),
                      upper=(half_width + 20.0, 260.0))


def circle_rain_50000():
    """The rain at five times the bodies, in a box two and a half times as wide (the scaling
    measurement of the threaded step, README "Several cores")."""
    return circle_rain(50000, 400, 250.0)


BUILDERS = [circle_rain, box_pyramid, newtons_cradle, v3_large_pyramid, v3_many_pyramids,
            v3_joint_grid, v3_tumbler, v3_smash, v3_spinner, v3_rain, gather]
# Written only when named on the command line: too large for the build's scene directory, which
# the tests parse and demos/bench/compare runs in full.
ON_DEMAND = [circle_rain_50000]


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out_dir, wanted = argv[1], set(argv[2:])
    os.makedirs(out_dir, exist_ok=True)
    for build in BUILDERS + [b for b in ON_DEMAND if b.__name__ in wanted]:
        scene = build()
        if wanted and scene["name"] not in wanted:
            continue
        path = os.path.join(out_dir, scene["name"] + ".json")
        # Compact separators, no trailing newline: part of the files' bytes.
        with open(path, "w", encoding="ascii") as out:
            json.dump(scene, out, separators=(",", ":"))
        wanted.discard(scene["name"])
    if wanted:
        sys.exit(f"generate.py: no scene named {', '.join(sorted(wanted))}")


if __name__ == "__main__":
    main(sys.argv)
