// lib/errors.ts
var DomainError = class extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = new.target.name;
  }
};
var NotFoundError = class extends DomainError {
};
var OutsideRootsError = class extends DomainError {
};
var InvalidInputError = class extends DomainError {
};
var TooLargeError = class extends DomainError {
};
var PoSyntaxError = class extends DomainError {
  reason;
  line;
  column;
  constructor(reason, line, column) {
    super(`${reason} at line ${line}, column ${column}`);
    this.reason = reason;
    this.line = line;
    this.column = column;
  }
};
var UnwritableCatalogError = class extends DomainError {
};

export {
  DomainError,
  NotFoundError,
  OutsideRootsError,
  InvalidInputError,
  TooLargeError,
  PoSyntaxError,
  UnwritableCatalogError
};
