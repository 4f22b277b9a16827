"""Vehicle parts and the horse of the starter library.

Layer: ldraw (generator side), LDU, LDraw frame (-Y up). Wheels and tyres are 16-sided
cylinders about LDraw Z (their axle), like the official ones; the steering stand, seat and
windscreen are built from boxes and a slanted prism; the horse from boxes and slanted prisms,
with the official saddle studs.
"""

from __future__ import annotations

from bow3d.ldraw.starter.geometry import box, cylinder, hull_prism, prism, union
from bow3d.ldraw.starter.part import Part, Ref, stud_grid, studs

STUD_TOWARDS_MINUS_Z = (1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0)  # stud grows along -Z


def wheels() -> list[Part]:
    """Wheels and tyres: cylinders along Z (a tyre is drawn solid; its wheel sits inside)."""
    hub = cylinder(5.0, -20.0, -10.0, sides=8, axis=2)
    return [Part("6014.dat", "Wheel 11 x 12 with Hub", [cylinder(13.0, -12.0, 8.0, sides=16, axis=2), hub]),
            Part("6014a.dat", "Wheel Rim 12 x 11 with Round Hole",
                 [cylinder(13.0, -12.0, 8.0, sides=16, axis=2), hub]),
            Part("6015.dat", "Tyre 12/ 40 x 11 Wide", [cylinder(25.0, -14.0, 14.0, sides=16, axis=2)]),
            Part("3641.dat", "Tyre  6/ 50 x  8 Offset Tread", [cylinder(18.0, -8.0, 8.0, sides=16, axis=2)]),
            Part("4624.dat", "Wheel Rim  6.4 x  8", [cylinder(10.0, -8.0, 8.0, sides=16, axis=2)])]


def wheel_plate() -> Part:
    """4600: a 2x2 plate with a wheel pin sticking out on each side along X."""
    pins = cylinder(4.0, -34.0, 34.0, sides=8, centre=(5.99, 0.0), axis=0)
    return Part("4600.dat", "Plate  2 x  2 with 2 Wheel Pins", [box((-20.0, 0.0, -20.0), (20.0, 8.0, 20.0)), pins],
                stud_grid(2, 2))


STEERING_WHEEL_ON_STAND = ((0.0, -26.32, -0.24), (0.0, 0.0, 1.0, -0.8, 0.6, 0.0, -0.6, -0.8, 0.0))


def steering() -> list[Part]:
    """3829a (a stand on a 2x1 base), 3828 (the wheel: a disc and its hub) and 3829c01, the two
    assembled as the official part assembles them (the wheel tilted towards the driver)."""
    stand = union([((-20.0, 0.0, -10.0), (20.0, 8.0, 10.0)), ((-4.0, -29.52, -4.0), (4.0, 0.0, 4.0))])
    wheel = [cylinder(14.0, -2.0, 2.0, sides=16), cylinder(4.0, -1.0, 6.0, sides=8)]
    position, matrix = STEERING_WHEEL_ON_STAND
    return [Part("3829a.dat", "Car Steering Wheel Stand", [stand]), Part("3828.dat", "Car Steering Wheel", wheel),
            Part("3829c01.dat", "Car Steering Stand and Wheel (Complete)",
                 refs=[Ref("3829a.dat", (0.0, 0.0, 0.0)), Ref("3828.dat", position, matrix, colour=0)])]


def rims() -> list[Part]:
    """497a and 7039: 8x18 wheel rims with four studs facing out (-Z), 7039 with a long axle."""
    out_studs = [Ref("stud.dat", (x, y, -12.0), STUD_TOWARDS_MINUS_Z) for y in (-10.0, 10.0) for x in (-10.0, 10.0)]
    rim = cylinder(22.0, -12.0, 10.0, sides=16, axis=2)
    axle = cylinder(4.0, 0.0, 30.0, sides=8, axis=2)
    return [Part("497a.dat", "Wheel Rim  8 x 18 with 4 Studs", [rim], out_studs),
            Part("7039.dat", "Wheel Rim  8 x 18 with 4 Studs and Cylindrical Axle", [rim, axle], out_studs),
            Part("35b.dat", "Wheel Axle Metal", [cylinder(4.0, -18.0, 18.0, sides=8, axis=2)])]


def seat() -> Part:
    """4079: a 2x2 seat, studs on the front row, a backrest at the back."""
    shell = union([((-20.0, 0.0, -20.0), (20.0, 8.0, 24.0)), ((-20.0, -40.0, 16.0), (20.0, 0.0, 25.0))])
    return Part("4079.dat", "Minifig Seat  2 x  2", [shell], studs([(10, 0, -10), (-10, 0, -10)]))


def windscreen() -> Part:
    """3823: a 2x4x2 windscreen: base, top bar with two studs, and a slanted pane between them."""
    pane = prism([(0.0, -14.0), (0.0, -8.0), (46.0, -24.0), (46.0, -30.0)], axis=0, w0=-40.0, w1=40.0)
    top = box((-40.0, 0.0, -12.0), (40.0, 8.0, 10.0))
    base = box((-40.0, 40.0, -30.0), (40.0, 48.0, 10.0))
    return Part("3823.dat", "Windscreen  2 x  4 x  2", [pane, top, base], studs([(30, 0, 0), (-30, 0, 0)]))


def horse() -> Part:
    """4493c01: a horse facing -Z: a body of boxes (saddle studs at (+-10, 0, 0), hooves at y = 57),
    a slanted neck and head (prisms across X) reaching up to y = -89 and forward to z = -96."""
    boxes = [((-17.0, -33.0, -60.0), (17.0, 10.0, -8.0)),  # chest
             ((-20.0, 0.0, -8.0), (20.0, 10.0, 8.0)),  # saddle
             ((-17.0, -31.0, 8.0), (17.0, 10.0, 74.0)),  # hindquarters
             ((-5.0, -28.0, 70.0), (5.0, 28.0, 86.04))]  # tail
    boxes += [((x0, 10.0, z0), (x0 + 10.0, 57.0, z1)) for x0 in (-17.0, 7.0) for z0, z1 in ((-48.0, -18.0),
                                                                                        (28.0, 58.0))]
    neck = hull_prism([(-28.0, -14.0), (-28.0, -58.0), (-70.0, -82.0), (-84.0, -68.0), (-50.0, -20.0)],
                      axis=0, w0=-9.0, w1=9.0)  # (y, z) corners
    head = hull_prism([(-89.02, -70.0), (-80.0, -62.0), (-37.0, -80.0), (-35.0, -94.0), (-45.0, -96.08),
                       (-78.0, -84.0)], axis=0, w0=-7.0, w1=7.0)
    return Part("4493c01.dat", "Animal Horse (Complete)", [union(boxes), neck, head],
                studs([(-10, 0, 0), (10, 0, 0)]))


def parts() -> list[Part]:
    """Every vehicle part and the horse."""
    return [*wheels(), *rims(), wheel_plate(), *steering(), seat(), windscreen(), horse()]
