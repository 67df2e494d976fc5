"""Compose frames: a cached layer of the lit table and its resting cards, then hands,
held cards, shadows, motion blur and sensor noise on top.

The layer is rebuilt only when a card lands, leaves or turns over (a new timeline
snapshot); a frame in between costs a copy, a few polygons and two saturating adds,
which is what lets 1280x720 render at video rate on one core.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from tablecam.cards import Card
from tablecam.render.decks import DeckFaces, load_deck
from tablecam.render.scene import Scene
from tablecam.render.table import glare_map, light_map, noise_tiles, table_albedo
from tablecam.render.timeline import (
    CARD_HEIGHT_MM,
    HandKey,
    Placed,
    Snapshot,
    Timeline,
    card_corners_mm,
)

Image = npt.NDArray[np.uint8]
CARD_THICKNESS_MM = 0.3
_EDGE_BGR = (200, 205, 210)


@dataclass(frozen=True)
class CardLabel:
    """One card in a frame: code (None face down), four corners clockwise from the
    card's own top-left (image pixels, distortion included), zone and how much shows."""

    card: Card | None
    face_up: bool
    corners: tuple[tuple[float, float], ...]
    zone: str
    visible: float

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card.code if self.card else None, "face_up": self.face_up,
                "corners": [[round(x, 2), round(y, 2)] for x, y in self.corners],
                "zone": self.zone, "visible": round(self.visible, 3)}


@dataclass
class _Drawn:
    placed: Placed
    zone: str
    corners: npt.NDArray[np.float64]


def _densify(polygon: npt.NDArray[np.float64], parts: int) -> npt.NDArray[np.float64]:
    """The polygon with each edge split into ``parts``, so that a long edge bends with
    the lens distortion once projected instead of cutting straight across."""
    following = np.roll(polygon, -1, axis=0)
    steps = np.linspace(0, 1, parts, endpoint=False)[None, :, None]
    return (polygon[:, None, :] + (following - polygon)[:, None, :] * steps).reshape(-1, 2)


class FrameRenderer:
    """Frames of one scene and timeline; ``frame(t)`` is deterministic in ``t``."""

    def __init__(self, scene: Scene, timeline: Timeline, faces: DeckFaces | None = None
                 ) -> None:
        self.scene = scene
        self.timeline = timeline
        cam = scene.camera
        rng = np.random.default_rng([scene.seed, 99])
        self.faces = faces or load_deck(scene.deck)
        self.card_w_mm = CARD_HEIGHT_MM * self.faces.aspect()
        # sprite height: about 1.5x the card's height in the image, for clean warps
        card_px = CARD_HEIGHT_MM / cam.mm_per_pixel()
        self.sprite_h = int(min(400, max(48, round(card_px * 1.5 / 8) * 8)))
        self._sprites: dict[Card | None, Image] = {}
        self.albedo = table_albedo(cam, scene.look, rng)
        self.light = light_map(scene.look, cam.width, cam.height)
        self.glare = glare_map(scene.look, cam.width, cam.height)
        self.noise_pos, self.noise_neg = noise_tiles(rng, cam.width, cam.height,
                                                     scene.look.noise)
        self._layer_version = -1
        self._layer: Image | None = None
        self._drawn: list[_Drawn] = []
        lx = math.cos(scene.look.light_angle)
        ly = math.sin(scene.look.light_angle)
        self.shadow_dir = (-lx, ly)  # shadows fall away from the light, in table mm

    # ---- cards ------------------------------------------------------------------------
    def sprite(self, card: Card | None) -> Image:
        if card not in self._sprites:
            image = (self.faces.face(card, self.sprite_h) if card is not None
                     else self.faces.back(self.sprite_h))
            self._sprites[card] = image
        return self._sprites[card]

    def project(self, corners_mm: npt.NDArray[np.float64], z: float) -> npt.NDArray[np.float64]:
        pts = np.hstack([corners_mm, np.full((len(corners_mm), 1), z)])
        return self.scene.camera.project(pts)

    def _blit(self, canvas: Image, sprite: Image, quad: npt.NDArray[np.float64],
              gain: npt.NDArray[np.float32] | None = None) -> None:
        """Warp a BGRA sprite onto ``quad`` (4 image points) of a BGR canvas."""
        h, w = canvas.shape[:2]
        x0 = max(0, int(math.floor(quad[:, 0].min())) - 1)
        y0 = max(0, int(math.floor(quad[:, 1].min())) - 1)
        x1 = min(w, int(math.ceil(quad[:, 0].max())) + 2)
        y1 = min(h, int(math.ceil(quad[:, 1].max())) + 2)
        if x1 <= x0 or y1 <= y0:
            return
        sh, sw = sprite.shape[:2]
        src = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
        dst = (quad - [x0, y0]).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(sprite, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4].astype(np.float32) * (1 / 255)
        colour = warped[:, :, :3].astype(np.float32)
        if gain is not None:
            colour *= gain[y0:y1, x0:x1]
        roi = canvas[y0:y1, x0:x1]
        roi[:] = (roi * (1 - alpha) + colour * alpha).astype(np.uint8)

    def _stack_side(self, canvas: Image, placed: Placed, count: int) -> None:
        """The edge of a stack of ``count`` cards under ``placed``: what shows of its
        thickness, drawn as the hull of its bottom and top outlines."""
        if count < 2:
            return
        corners = card_corners_mm(placed, self.card_w_mm)
        bottom = self.project(corners, 0.0)
        top = self.project(corners, count * CARD_THICKNESS_MM)
        hull = cv2.convexHull(np.vstack([bottom, top]).astype(np.float32))
        cv2.fillConvexPoly(canvas, np.round(hull * 16).astype(np.int32), _EDGE_BGR,
                           cv2.LINE_AA, 4)
        for i in range(1, count, 3):  # faint lines between the cards
            ring = self.project(corners, i * CARD_THICKNESS_MM)
            cv2.polylines(canvas, [np.round(ring * 16).astype(np.int32)], True, (150, 150, 155),
                          1, cv2.LINE_AA, 4)

    def _layer_for(self, snapshot: Snapshot) -> Image:
        if snapshot.version == self._layer_version and self._layer is not None:
            return self._layer
        cam = self.scene.camera
        canvas = self.albedo.copy()
        shadow = np.zeros((cam.height, cam.width), np.uint8)
        drawn: list[_Drawn] = []
        plan: list[tuple[str, list[Placed], int]] = []
        for zone, cards in snapshot.zones.items():
            if not cards:
                continue
            stacked = zone in ("left", "right") or zone.startswith("spit")
            shown = list(cards[-6:]) if stacked else list(cards)
            plan.append((zone, shown, len(cards) - len(shown) if stacked else 0))
        sdx, sdy = self.shadow_dir
        for _zone, shown, hidden in plan:
            base = shown[0]
            offset = 1.5 + 0.05 * (hidden + len(shown))
            corners = card_corners_mm(base, self.card_w_mm) + [sdx * offset, sdy * offset]
            pts = self.project(corners, 0.0)
            cv2.fillConvexPoly(shadow, np.round(pts * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
        blur = max(3, int(round(4 / cam.mm_per_pixel())) | 1)
        shadow = np.asarray(cv2.GaussianBlur(shadow, (blur, blur), 0), np.uint8)
        dark = 1 - self.scene.look.shadow * shadow.astype(np.float32)[..., None] / 255
        canvas = (canvas * dark).astype(np.uint8)
        for zone, shown, hidden in plan:
            if hidden > 0:
                self._stack_side(canvas, shown[0], hidden + 1)
            for level, placed in enumerate(shown):
                z = (hidden + level + 1) * CARD_THICKNESS_MM
                corners = self.project(card_corners_mm(placed, self.card_w_mm), z)
                card = placed.card if placed.face_up else None
                self._blit(canvas, self.sprite(card), corners)
                drawn.append(_Drawn(placed, zone, corners))
        lit = canvas.astype(np.float32) * self.light
        lit += self.glare[..., None]
        # a real lens is never quite sharp: soften the whole layer a little
        lit = np.asarray(cv2.GaussianBlur(lit, (0, 0), 0.55), np.float32)
        self._layer = np.clip(lit, 0, 255).astype(np.uint8)
        self._layer_version = snapshot.version
        self._drawn = drawn
        return self._layer

    # ---- hands ------------------------------------------------------------------------
    def _hand_polygons(self, seat: str, key: HandKey) -> list[tuple[npt.NDArray[np.float64],
                                                                     str]]:
        """A forearm, palm, fingers and thumb around ``key`` in table mm (x, y, z)."""
        L = self.scene.layout
        sign = 1.0 if seat == "A" else -1.0
        shoulder = np.array([140.0 * sign, -sign * (L.row_y + 1500)])  # beyond the rest point
        tip = np.array([key.x, key.y])
        heading = tip - shoulder
        heading /= max(1e-6, float(np.linalg.norm(heading)))
        side = np.array([heading[1], -heading[0]])  # to the hand's right
        palm_centre = tip - heading * 45
        polys: list[tuple[npt.NDArray[np.float64], str]] = []

        def at(u: float, v: float) -> npt.NDArray[np.float64]:
            """Point ``u`` mm to the right and ``v`` mm forward of the palm centre."""
            return palm_centre + side * u + heading * v

        def capsule(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64], r: float
                    ) -> npt.NDArray[np.float64]:
            d = b - a
            d /= max(1e-6, float(np.linalg.norm(d)))
            n = np.array([d[1], -d[0]])
            angles = np.linspace(0, math.pi, 6)
            cap_b = [b + r * (n * math.cos(t) + d * math.sin(t)) for t in angles]
            cap_a = [a - r * (n * math.cos(t) + d * math.sin(t)) for t in angles]
            return np.array(cap_b + cap_a)

        wrist_l, wrist_r = at(-30, -45), at(30, -45)
        mid_l, mid_r = at(-38, -190), at(38, -190)
        # the sleeve runs on past the elbow to the player's shoulder, off the table
        polys.append((_densify(np.array([at(-60, -900), at(60, -900), mid_r, mid_l]), 12),
                      "sleeve"))
        polys.append((_densify(np.array([mid_l, mid_r, wrist_r, wrist_l]), 6), "skin"))
        ring = [at(40 * math.cos(a), 48 * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 14,
                                                                             endpoint=False)]
        polys.append((np.array(ring), "skin"))
        spread = 1.3 if key.flat else 1.0
        nails = []
        for u, length in ((-26, 52), (-9, 62), (9, 60), (26, 48)):
            base = at(u * spread * 0.9, 30)
            end = at(u * spread, 30 + length)
            polys.append((capsule(base, end, 8.5), "finger"))
            nails.append((capsule(at(u * spread, 30 + length - 11),
                                  at(u * spread, 30 + length - 3), 5.0), "nail"))
        polys.append((capsule(at(-34, -15), at(-55, 25), 10), "finger"))
        nails.append((capsule(at(-52, 17), at(-55, 25), 5.5), "nail"))
        polys.extend(nails)
        return polys

    def _draw_hand(self, frame: Image, seat: str, key: HandKey, held: tuple[Placed, int] | None,
                   motion: tuple[float, float]) -> list[npt.NDArray[np.float64]]:
        """Draw one hand (and the card it holds) with its soft shadow; return the
        hand's image polygons (for visibility labels)."""
        cam = self.scene.camera
        polys = self._hand_polygons(seat, key)
        z_hand = max(0.0, key.z) + 18
        image_polys = [self.project(p, z_hand) for p, _ in polys]
        # the shadow falls away from the light, further off the higher the hand is
        sdx, sdy = self.shadow_dir
        shift = np.array([sdx, sdy]) * (6 + key.z * 0.8)
        shadow_polys = [self.project(poly + shift, 0.0) for poly, _ in polys]
        k = max(5, int(round((8 + key.z * 0.3) / cam.mm_per_pixel())) | 1)
        all_pts = np.clip(np.vstack(image_polys + shadow_polys), -1e5, 1e5)
        margin = 40 + k
        x0 = max(0, int(all_pts[:, 0].min()) - margin)
        y0 = max(0, int(all_pts[:, 1].min()) - margin)
        x1 = min(cam.width, int(all_pts[:, 0].max()) + margin)
        y1 = min(cam.height, int(all_pts[:, 1].max()) + margin)
        if x1 <= x0 or y1 <= y0:
            return image_polys
        roi = frame[y0:y1, x0:x1]
        blur_needed = math.hypot(*motion) > 3
        original = roi.copy() if blur_needed else roi
        touched = np.zeros(roi.shape[:2], np.uint8)
        # soft shadow on the table
        mask = np.zeros(roi.shape[:2], np.uint8)
        for pts in shadow_polys:
            cv2.fillPoly(mask, [np.round((pts - [x0, y0]) * 4).astype(np.int32)], 255,
                         cv2.LINE_AA, 2)
        mask = np.asarray(cv2.blur(mask, (k, k)), np.uint8)
        strength = self.scene.look.shadow * (1.0 - min(0.6, key.z / 200))
        keep = cv2.convertScaleAbs(mask, alpha=-strength, beta=255)
        cv2.multiply(roi, cv2.merge([keep, keep, keep]), dst=roi, scale=1 / 255)
        touched |= mask
        # the held card, just under the fingers
        if held is not None:
            placed, _ = held
            moved = Placed(placed.card, placed.face_up, key.x, key.y, placed.angle)
            corners = self.project(card_corners_mm(moved, self.card_w_mm), z_hand - 6)
            sub = frame[y0:y1, x0:x1]
            self._blit(sub, self.sprite(placed.card if placed.face_up else None),
                       corners - [x0, y0], self.light[y0:y1, x0:x1])
        # the hand itself, lit like the table at its place, rounded by shading that
        # darkens towards each part's outline (distance to the edge of its mask)
        cx = int(np.clip((all_pts[:, 0].mean()), 0, cam.width - 1))
        cy = int(np.clip((all_pts[:, 1].mean()), 0, cam.height - 1))
        gain = self.light[cy, cx]
        px_per_mm = 1 / cam.mm_per_pixel()
        skin_bgr = self.scene.skin[seat]
        nail_bgr = tuple(int(0.55 * c + 0.45 * w) for c, w in zip(skin_bgr, (215, 215, 240),
                                                                 strict=True))
        for part_names, colour_bgr, radius_mm in ((("sleeve",), self.scene.sleeve[seat], 30.0),
                                                  (("skin", "finger"), skin_bgr, 9.0),
                                                  (("nail",), nail_bgr, 2.0)):
            mask = np.zeros(roi.shape[:2], np.uint8)
            creases = np.zeros(roi.shape[:2], np.uint8)
            for (_poly, part), pts in zip(polys, image_polys, strict=True):
                if part not in part_names:
                    continue
                local = np.round((pts - [x0, y0]) * 16).astype(np.int32)
                cv2.fillPoly(mask, [local], 255, cv2.LINE_AA, 4)
                if part == "finger":
                    cv2.polylines(creases, [local], True, 255, 1, cv2.LINE_AA, 4)
            if not mask.any():
                continue
            touched |= mask
            inside = np.asarray(cv2.distanceTransform((mask > 127).astype(np.uint8),
                                                      cv2.DIST_L2, 3), np.float32)
            depth = np.minimum(1.0, inside / max(1.0, radius_mm * px_per_mm))
            shade = 0.62 + 0.45 * np.sqrt(depth) - 0.25 * (creases.astype(np.float32) / 255)
            colour = np.array(colour_bgr, np.float32) * gain
            painted = np.clip(shade[..., None] * colour, 0, 255).astype(np.uint8)
            alpha = mask.astype(np.float32) * (1 / 255)
            cv2.blendLinear(painted, roi, alpha, 1 - alpha, dst=roi)
        # motion blur along the hand's path when it moves fast: a box blur stretched
        # along the motion (separable, so cheap), over the hand and what it smeared
        if blur_needed:
            speed = math.hypot(*motion)
            length = min(25.0, speed)
            size = (max(1, int(abs(motion[0]) / speed * length)),
                    max(1, int(abs(motion[1]) / speed * length)))
            changed = np.asarray(cv2.blur(touched, size), np.float32) * (1 / 255)
            blurred = cv2.blur(roi, size)
            cv2.blendLinear(blurred, original, changed, 1 - changed, dst=roi)
        return image_polys

    # ---- frames -----------------------------------------------------------------------
    def frame(self, t: float, index: int = 0) -> Image:
        """The picture at time ``t`` (``index`` picks the noise, for determinism)."""
        image, _ = self._render(t, index, labels=False)
        return image

    def frame_with_labels(self, t: float, index: int = 0) -> tuple[Image, list[CardLabel]]:
        """The picture at ``t`` and every card in it, with corners and visibility."""
        return self._render(t, index, labels=True)

    def _render(self, t: float, index: int, labels: bool) -> tuple[Image, list[CardLabel]]:
        cam = self.scene.camera
        snapshot = self.timeline.snapshot_at(t)
        frame = self._layer_for(snapshot).copy()
        hand_polys: list[npt.NDArray[np.float64]] = []
        held_quads: list[tuple[Placed, npt.NDArray[np.float64]]] = []
        dt = 1.0 / self.scene.fps
        for seat, track in sorted(self.timeline.hands.items()):
            key = track.at(t)
            if key is None:
                continue
            before = track.at(t - dt) or key
            now_px = cam.project(np.array([[key.x, key.y, key.z]]))[0]
            then_px = cam.project(np.array([[before.x, before.y, before.z]]))[0]
            held = track.card_at(t)
            hand_polys.extend(self._draw_hand(frame, seat, key, held,
                                              (float(now_px[0] - then_px[0]),
                                               float(now_px[1] - then_px[1]))))
            if held is not None:
                moved = Placed(held[0].card, held[0].face_up, key.x, key.y, held[0].angle)
                held_quads.append((moved, self.project(card_corners_mm(moved, self.card_w_mm),
                                                       max(0.0, key.z) + 12)))
        rng = np.random.default_rng([self.scene.seed, index])
        ox, oy = int(rng.integers(0, 64)), int(rng.integers(0, 64))
        h, w = cam.height, cam.width
        cv2.add(frame, self.noise_pos[oy:oy + h, ox:ox + w], dst=frame)
        cv2.subtract(frame, self.noise_neg[oy:oy + h, ox:ox + w], dst=frame)
        if not labels:
            return frame, []
        return frame, self._labels(hand_polys, held_quads)

    def _labels(self, hand_polys: list[npt.NDArray[np.float64]],
                held: list[tuple[Placed, npt.NDArray[np.float64]]]) -> list[CardLabel]:
        """Every card drawn, with the share of it that shows (cards above and hands
        hide it), from an id buffer drawn in the same order as the picture."""
        cam = self.scene.camera
        ids = np.zeros((cam.height, cam.width), np.int32)
        items = [(d.placed, d.zone, d.corners) for d in self._drawn]
        items += [(p, "hand", quad) for p, quad in held]
        for i, (_, _, corners) in enumerate(items, start=1):
            cv2.fillConvexPoly(ids, np.round(corners).astype(np.int32), i)
        for poly in hand_polys:
            cv2.fillPoly(ids, [np.round(poly).astype(np.int32)], -1)
        counts = np.bincount(ids[ids > 0].ravel(), minlength=len(items) + 1)
        out = []
        for i, (placed, zone, corners) in enumerate(items, start=1):
            area = abs(cv2.contourArea(corners.astype(np.float32)))
            visible = float(min(1.0, counts[i] / area)) if area > 0 else 0.0
            out.append(CardLabel(placed.card if placed.face_up else None, placed.face_up,
                                 tuple((float(x), float(y)) for x, y in corners), zone, visible))
        return out
