/**
 * The one error type that reaches a client. Every refusal, engine failure and
 * protocol violation becomes a PgError carrying a SQLSTATE and a message the
 * user can act on; nothing else is ever written into an ErrorResponse.
 */
export type Severity = 'ERROR' | 'FATAL' | 'PANIC';

export const SqlState = {
  successfulCompletion: '00000',
  featureNotSupported: '0A000',
  objectNotInPrerequisiteState: '55000',
  connectionException: '08000',
  connectionFailure: '08006',
  protocolViolation: '08P01',
  invalidAuthorizationSpecification: '28000',
  invalidPassword: '28P01',
  invalidCatalogName: '3D000',
  syntaxError: '42601',
  insufficientPrivilege: '42501',
  undefinedTable: '42P01',
  undefinedColumn: '42703',
  undefinedFunction: '42883',
  undefinedObject: '42704',
  duplicatePreparedStatement: '42P05',
  duplicateCursor: '42P03',
  invalidCursorName: '34000',
  invalidSqlStatementName: '26000',
  invalidParameterValue: '22023',
  cantChangeRuntimeParam: '55P02',
  invalidTextRepresentation: '22P02',
  badCopyFileFormat: '22P04',
  invalidBinaryRepresentation: '22P03',
  numericValueOutOfRange: '22003',
  nullValueNotAllowed: '22004',
  divisionByZero: '22012',
  dataException: '22000',
  cardinalityViolation: '21000',
  invalidArgumentForLogarithm: '2201E',
  invalidArgumentForPowerFunction: '2201F',
  invalidArgumentForWidthBucketFunction: '2201G',
  arraySubscriptError: '2202E',
  invalidRegularExpression: '2201B',
  ambiguousColumn: '42702',
  duplicateAlias: '42712',
  groupingError: '42803',
  ambiguousFunction: '42725',
  invalidColumnReference: '42P10',
  syntaxErrorOrAccessRuleViolation: '42000',
  invalidDatetimeFormat: '22007',
  datetimeFieldOverflow: '22008',
  characterNotInRepertoire: '22021',
  invalidEscapeSequence: '22025',
  nameTooLong: '42622',
  datatypeMismatch: '42804',
  cannotCoerce: '42846',
  indeterminateDatatype: '42P18',
  undefinedParameter: '42P02',
  queryCanceled: '57014',
  adminShutdown: '57P01',
  crashShutdown: '57P02',
  inFailedSqlTransaction: '25P02',
  invalidSavepointSpecification: '3B001',
  activeSqlTransaction: '25001',
  noActiveSqlTransaction: '25P01',
  readOnlySqlTransaction: '25006',
  programLimitExceeded: '54000',
  statementTooComplex: '54001',
  tooManyColumns: '54011',
  tooManyArguments: '54023',
  outOfMemory: '53200',
  tooManyConnections: '53300',
  serializationFailure: '40001',
  ioError: '58030',
  invalidSchemaName: '3F000',
  dependentObjectsStillExist: '2BP01',
  duplicateSchema: '42P06',
  duplicateTable: '42P07',
  wrongObjectType: '42809',
  internalError: 'XX000',
} as const;

export type SqlStateCode = (typeof SqlState)[keyof typeof SqlState];

export interface PgErrorFields {
  severity?: Severity;
  detail?: string;
  hint?: string;
  /** 1-based character position in the statement text, as PostgreSQL reports it. */
  position?: number;
  /** CONTEXT: where the error happened (COPY's `COPY t, line 2`). */
  where?: string;
}

export class PgError extends Error {
  readonly code: SqlStateCode;
  readonly severity: Severity;
  readonly detail?: string;
  readonly hint?: string;
  readonly position?: number;
  readonly where?: string;

  constructor(code: SqlStateCode, message: string, fields: PgErrorFields = {}) {
    super(message);
    this.name = 'PgError';
    this.code = code;
    this.severity = fields.severity ?? 'ERROR';
    this.detail = fields.detail;
    this.hint = fields.hint;
    this.position = fields.position;
    this.where = fields.where;
  }

  static protocol(message: string): PgError {
    return new PgError(SqlState.protocolViolation, message, { severity: 'FATAL' });
  }

  static featureNotSupported(message: string): PgError {
    return new PgError(SqlState.featureNotSupported, message);
  }

  static insufficientPrivilege(message: string): PgError {
    return new PgError(SqlState.insufficientPrivilege, message);
  }

  static syntax(message: string, position?: number): PgError {
    return new PgError(SqlState.syntaxError, message, { position });
  }
}

/** A query text over the configured bound (lakegate's limits.maxStatementBytes; PostgreSQL has none below 1 GB). */
export const statementTooLong = (bytes: number, max: number): PgError =>
  new PgError(SqlState.programLimitExceeded, `statement is too long: ${bytes} bytes, at most ${max} are accepted`, {
    hint: "Split the statement, or raise lakegate's limits.maxStatementBytes.",
  });
