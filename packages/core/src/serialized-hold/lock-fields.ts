import { InvalidArgumentError } from "../errors.ts";
import { validateName } from "../validate.ts";
import { checkLeaseTerms, type FieldCheck } from "./fields.ts";

/** The fields of a Lock's, FairLock's or read-write side's lease (`SerializedLease`). */
export const checkLockFields: FieldCheck = (h, field) => {
  validateName(field("prefix"), h["prefix"]);
  validateName(field("name"), h["name"]);
  validateName(field("owner"), h["owner"]);
  if (h["kind"] === "read-write-lock" && h["side"] !== "read" && h["side"] !== "write")
    throw new InvalidArgumentError(field("side"), `must be "read" or "write"`);
  checkLeaseTerms(h, field);
};
