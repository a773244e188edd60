import { MAX_PERMITS } from "../semaphore/limits.ts";
import { validateInteger, validateName } from "../validate.ts";
import { checkExpiry, checkLeaseTerms, integers, nameArray, type FieldCheck } from "./fields.ts";

// The fields of the kinds other than the lock-shaped ones (lock-fields.ts), each checked only
// where that kind is resumed, so a Lock-only bundle carries none of them.

export const checkMultiLockFields: FieldCheck = (h, field) => {
  validateName(field("prefix"), h["prefix"]);
  const names = nameArray(field("names"), h["names"]);
  integers(field("fences"), h["fences"], names.length);
  if (h["versions"] !== undefined) integers(field("versions"), h["versions"], names.length);
  validateName(field("owner"), h["owner"]);
  checkExpiry(h, field);
};

export const checkSemaphoreFields: FieldCheck = (h, field) => {
  validateName(field("prefix"), h["prefix"]);
  validateName(field("name"), h["name"]);
  validateInteger(field("permits"), h["permits"], 1, MAX_PERMITS);
  validateName(field("releaseOp"), h["releaseOp"]);
  if (h["releaseAnchor"] !== undefined)
    validateInteger(field("releaseAnchor"), h["releaseAnchor"], 0, Number.MAX_SAFE_INTEGER);
  if (h["claimOp"] !== undefined || h["claimWaiter"] !== undefined) {
    validateName(field("claimWaiter"), h["claimWaiter"]);
    validateName(field("claimOp"), h["claimOp"]);
  }
  if (h["claimDeadline"] !== undefined)
    validateInteger(field("claimDeadline"), h["claimDeadline"], 0, Number.MAX_SAFE_INTEGER);
};

export const checkPermitFields: FieldCheck = (h, field) => {
  validateName(field("prefix"), h["prefix"]);
  validateName(field("name"), h["name"]);
  validateName(field("id"), h["id"]);
  checkLeaseTerms(h, field);
};

export const checkQuorumFields: FieldCheck = (h, field) => {
  nameArray(field("prefixes"), h["prefixes"]);
  validateName(field("name"), h["name"]);
  validateName(field("token"), h["token"]);
  checkLeaseTerms(h, field);
};
