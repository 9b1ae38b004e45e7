/* SPDX-License-Identifier: MIT */
/*
 * How well a fitted model describes the measurements, judged against what they could show:
 * each measurement's own noise (the standard error from its 95% CI, 0 when the document does
 * not record one) plus an allowance for model error (real hardware never follows an idealized
 * bank model to the last percent). A residual r of a measurement with noise s is "expected"
 * up to e = sqrt(s^2 + CB_MODEL_ALLOWANCE^2); the misfit of a set of measurements is the RMS of
 * r / e. A correct model has a misfit around 1 or below; a misfit of q means the model misses
 * by q times what noise and the allowance explain. Internal to the inference; clbanks(1)
 * states the rule.
 */
#ifndef CB_INFER_QUALITY_H
#define CB_INFER_QUALITY_H

#include "core/fit.h"

/* The error a correct model may show beyond the measured noise (relative). */
#define CB_MODEL_ALLOWANCE 0.02
/* Misfit up to which a model fits; beyond it the confidence falls as (CB_FIT_GOOD / q)^2. */
#define CB_FIT_GOOD 1.5
/* Misfit beyond which no model of the family describes the device: inconclusive. */
#define CB_FIT_NONE 6.0

/* Judges FIT on the dataset's fit and hold-out tables into Q. */
void cb_judge_fit(const cb_dataset *ds, const cb_fit *fit, cb_fit_quality *q);

/* The factor the confidence is multiplied by for a misfit Q (1 up to CB_FIT_GOOD). */
double cb_fit_factor(double q);

#endif
