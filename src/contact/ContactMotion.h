#pragma once
// Whether an existing contact blocks a small rigid motion of one of its bodies (src/contact/README.md §Detection; GraspIt!'s
// preventsMotion): the contact point, carried by the motion, must not move against that body's inward
// normal (a component below −1e-9 mm blocks).
#include "contact/Contact.h"

namespace sg {

// `side` is the side of the contact on the moving body; the body moves from pose `from` to `to` (world).
bool preventsMotion(const ContactSide& side, const Transform& from, const Transform& to, double tolerance_mm = 1e-9);

// True if any contact side on a body in `moving` would be pushed against its normal when those bodies
// move from their current poses (`from`) to `to` (same order as `moving`). Sides whose bodies both move
// together are ignored.
bool anyContactPreventsMotion(const std::vector<Contact>& contacts, const std::vector<BodyHandle>& moving,
                              const std::vector<Transform>& from, const std::vector<Transform>& to);

}  // namespace sg
