import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * pgJDBC against a running lakegate demo. Prints one line per check:
 * "PASS name" or "FAIL name: reason". Expected values are computed here in Java.
 * Usage: java -cp postgresql.jar:. JdbcChecks HOST PORT
 */
public class JdbcChecks {
  static String host;
  static int port;

  interface Check {
    void run() throws Exception;
  }

  static void check(String name, Check c) {
    try {
      c.run();
      System.out.println("PASS " + name);
    } catch (Throwable e) {
      String msg = String.valueOf(e);
      if (e instanceof SQLException) msg = "SQLState " + ((SQLException) e).getSQLState() + ": " + e.getMessage();
      System.out.println("FAIL " + name + ": " + msg.replace('\n', ' '));
    }
    System.out.flush();
  }

  static void eq(String what, Object expected, Object actual) {
    boolean same;
    if (expected instanceof byte[] && actual instanceof byte[]) same = Arrays.equals((byte[]) expected, (byte[]) actual);
    else if (expected instanceof BigDecimal && actual instanceof BigDecimal)
      same = ((BigDecimal) expected).compareTo((BigDecimal) actual) == 0;
    else same = Objects.equals(expected, actual);
    if (!same) {
      throw new AssertionError(what + ": expected <" + show(expected) + "> got <" + show(actual) + ">");
    }
  }

  static String show(Object o) {
    if (o instanceof byte[]) return Arrays.toString((byte[]) o);
    return o == null ? "null" : o + " (" + o.getClass().getSimpleName() + ")";
  }

  static Connection connect(String user, String password, String db) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    p.setProperty("connectTimeout", "10");
    p.setProperty("loginTimeout", "10");
    p.setProperty("socketTimeout", "30");
    p.setProperty("sslmode", "disable");
    return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + db, p);
  }

  static Connection connect() throws SQLException {
    return connect("alice", "alice", "demo");
  }

  static SQLException expectSqlError(Check c) throws Exception {
    try {
      c.run();
    } catch (SQLException e) {
      return e;
    }
    throw new AssertionError("expected an SQLException");
  }

  static void selectOneWorks(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
      if (!rs.next()) throw new AssertionError("SELECT 1 returned no row");
      eq("SELECT 1", 1, rs.getInt(1));
    }
  }

  static final String LONG_QUERY =
      "SELECT count(*) FROM generate_series(1, 100000) a(a) CROSS JOIN generate_series(1, 100000) b(b) WHERE (a.a + b.b) % 7 = 3";

  public static void main(String[] args) throws Exception {
    host = args[0];
    port = Integer.parseInt(args[1]);
    TimeZone.setDefault(TimeZone.getTimeZone("UTC"));

    check("connect", () -> {
      try (Connection c = connect()) {
        eq("isValid", true, c.isValid(5));
        DatabaseMetaData md = c.getMetaData();
        eq("product", "PostgreSQL", md.getDatabaseProductName());
        eq("user", "alice", md.getUserName());
        selectOneWorks(c);
      }
    });

    check("wrong_password_28P01", () -> {
      SQLException e = expectSqlError(() -> connect("alice", "wrong", "demo").close());
      eq("SQLState", "28P01", e.getSQLState());
      if (!e.getMessage().contains("password authentication failed for user \"alice\"")) {
        throw new AssertionError("message: " + e.getMessage());
      }
    });

    check("unknown_database_3D000", () -> {
      SQLException e = expectSqlError(() -> connect("alice", "alice", "nosuchdb").close());
      eq("SQLState", "3D000", e.getSQLState());
    });

    check("getters_text", () -> {
      int i = 6 * 7;
      long l = (1L << 53) + 1;
      BigDecimal n = new BigDecimal("12345.678");
      String s = "h" + "\u00e9llo \u2713";
      LocalDate d = LocalDate.of(2024, 2, 29);
      LocalDateTime ts = LocalDateTime.of(2024, 2, 29, 13, 45, 1, 123456000);
      byte[] b = new byte[] {0x0a, (byte) 0xff, 0x00};
      UUID u = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
      String sql = "SELECT " + i + "::int4, " + l + "::int8, " + n.toPlainString() + "::numeric, '" + s + "'::text, "
          + "true, DATE '" + d + "', TIMESTAMP '2024-02-29 13:45:01.123456', '\\x0aff00'::bytea, '" + u + "'::uuid, "
          + "1.5::float8, 2.5::float4, 32000::int2, NULL::int4";
      try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        if (!rs.next()) throw new AssertionError("no row");
        eq("getInt", i, rs.getInt(1));
        eq("getLong", l, rs.getLong(2));
        eq("getBigDecimal", n, rs.getBigDecimal(3));
        eq("getString", s, rs.getString(4));
        eq("getBoolean", true, rs.getBoolean(5));
        eq("getDate", java.sql.Date.valueOf(d), rs.getDate(6));
        eq("getTimestamp", Timestamp.valueOf(ts), rs.getTimestamp(7));
        eq("getBytes", b, rs.getBytes(8));
        eq("getObject(uuid)", u, rs.getObject(9));
        eq("getDouble", 1.5d, rs.getDouble(10));
        eq("getFloat", 2.5f, rs.getFloat(11));
        eq("getShort", (short) 32000, rs.getShort(12));
        eq("getObject(null)", null, rs.getObject(13));
        eq("wasNull", true, rs.wasNull());
        eq("getObject(int8)", l, rs.getObject(2));
        eq("getObject(LocalDate)", d, rs.getObject(6, LocalDate.class));
        eq("getObject(LocalDateTime)", ts, rs.getObject(7, LocalDateTime.class));
        ResultSetMetaData md = rs.getMetaData();
        eq("type 1", "int4", md.getColumnTypeName(1));
        eq("type 2", "int8", md.getColumnTypeName(2));
        eq("type 3", "numeric", md.getColumnTypeName(3));
        eq("type 5", "bool", md.getColumnTypeName(5));
        eq("type 8", "bytea", md.getColumnTypeName(8));
        eq("type 9", "uuid", md.getColumnTypeName(9));
      }
    });

    check("timestamptz_in_jvm_zone", () -> {
      TimeZone saved = TimeZone.getDefault();
      TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
      try (Connection c = connect(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT TIMESTAMPTZ '2024-02-29 13:45:01.5+00'")) {
        rs.next();
        Instant expected = OffsetDateTime.of(2024, 2, 29, 13, 45, 1, 500000000, ZoneOffset.UTC).toInstant();
        eq("getTimestamp instant", expected, rs.getTimestamp(1).toInstant());
        eq("getObject(OffsetDateTime) instant", expected, rs.getObject(1, OffsetDateTime.class).toInstant());
        eq("text in session zone", "2024-02-29 08:45:01.5-05", rs.getString(1));
      }
      // pgJDBC sends the JVM's zone as TimeZone: a timestamptz's date, day and hour are its wall clock's there,
      // and a date and time without an offset is read there (expected values from java.time)
      Instant at = OffsetDateTime.of(2024, 2, 29, 3, 0, 0, 0, ZoneOffset.UTC).toInstant();
      java.time.ZonedDateTime local = at.atZone(java.time.ZoneId.of("America/New_York"));
      try (Connection c = connect(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT (TIMESTAMPTZ '2024-02-29 03:00+00')::date::text, extract(hour from TIMESTAMPTZ '2024-02-29 03:00+00')::int,"
              + " date_trunc('day', TIMESTAMPTZ '2024-02-29 03:00+00'), '2024-02-28 22:00'::timestamptz = TIMESTAMPTZ '2024-02-29 03:00+00',"
              + " to_char(TIMESTAMPTZ '2024-02-29 03:00+00', 'YYYY-MM-DD HH24:MI OF')")) {
        rs.next();
        eq("::date in session zone", local.toLocalDate().toString(), rs.getString(1));
        eq("extract(hour) in session zone", local.getHour(), rs.getInt(2));
        eq("date_trunc('day') in session zone", local.toLocalDate().atStartOfDay(local.getZone()).toInstant(), rs.getObject(3, OffsetDateTime.class).toInstant());
        eq("literal read in session zone", true, rs.getBoolean(4));
        eq("to_char in session zone", local.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")) + " -05", rs.getString(5));
      } finally {
        TimeZone.setDefault(saved);
      }
    });

    // carol (sqe_admin) reads the demo rows as stored; the demo masks ssn for alice
    check("demo_orders", () -> {
      try (Connection c = connect("carol", "carol", "demo"); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT id, ssn, amount, region FROM sales.orders WHERE id IN (1, 2) ORDER BY id")) {
        rs.next();
        eq("id", 1, rs.getInt("id"));
        eq("ssn", "111-11-1111", rs.getString("ssn"));
        eq("amount", new BigDecimal("100.00"), rs.getBigDecimal("amount"));
        eq("amount scale", 2, rs.getBigDecimal("amount").scale());
        eq("region", "EU", rs.getString("region"));
        rs.next();
        eq("id", 2, rs.getInt(1));
        eq("amount", new BigDecimal("250.50"), rs.getBigDecimal(3));
        eq("more rows", false, rs.next());
        ResultSetMetaData md = rs.getMetaData();
        eq("type id", "int4", md.getColumnTypeName(1));
        // Strings are presented as text (unbounded Iceberg/DuckDB strings); pgJDBC still maps them to Types.VARCHAR.
        eq("type ssn", "text", md.getColumnTypeName(2));
        eq("type amount", "numeric", md.getColumnTypeName(3));
        eq("precision amount", 10, md.getPrecision(3));
        eq("scale amount", 2, md.getScale(3));
        eq("jdbc type amount", Types.NUMERIC, md.getColumnType(3));
      }
    });

    // A PreparedStatement run 10 times: from the 5th run pgJDBC prepares the named statement S_1,
    // from the 6th it only Binds it and asks for binary results. Values checked on every run.
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(
            "SELECT ?::int4 AS i, ?::int8 AS l, ?::text AS s, ?::numeric AS n, ?::date AS d, ?::timestamp AS ts, "
                + "?::bool AS b, ?::bytea AS by, ?::float8 AS f, ?::uuid AS u, ?::int2 AS sh, ?::float4 AS fl")) {
      for (int run = 1; run <= 10; run++) {
        final int k = run;
        check("prepared_run_" + run, () -> {
          int i = 1000 * k - 7;
          long l = (1L << 40) * k + k;
          String s = "row-" + k + "-\u00fc";
          BigDecimal n = new BigDecimal("123.45").multiply(BigDecimal.valueOf(k));
          LocalDate d = LocalDate.of(2024, 1, 1).plusDays(k * 40L);
          LocalDateTime ts = LocalDateTime.of(2024, 2, 29, 13, 45, 1).plusSeconds(k * 3601L).withNano(k * 1000);
          boolean b = k % 2 == 0;
          byte[] by = new byte[] {(byte) k, (byte) -k, 0};
          double f = k / 4.0;
          UUID u = new UUID(k, -k);
          short sh = (short) (-k * 100);
          float fl = k * 0.5f;
          ps.setInt(1, i);
          ps.setLong(2, l);
          ps.setString(3, s);
          ps.setBigDecimal(4, n);
          ps.setDate(5, java.sql.Date.valueOf(d));
          ps.setTimestamp(6, Timestamp.valueOf(ts));
          ps.setBoolean(7, b);
          ps.setBytes(8, by);
          ps.setDouble(9, f);
          ps.setObject(10, u);
          ps.setShort(11, sh);
          ps.setFloat(12, fl);
          try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) throw new AssertionError("no row");
            eq("int4", i, rs.getInt(1));
            eq("int8", l, rs.getLong(2));
            eq("text", s, rs.getString(3));
            eq("numeric", n, rs.getBigDecimal(4));
            eq("date", java.sql.Date.valueOf(d), rs.getDate(5));
            eq("timestamp", Timestamp.valueOf(ts), rs.getTimestamp(6));
            eq("bool", b, rs.getBoolean(7));
            eq("bytea", by, rs.getBytes(8));
            eq("float8", f, rs.getDouble(9));
            eq("uuid", u, rs.getObject(10));
            eq("int2", sh, rs.getShort(11));
            eq("float4", fl, rs.getFloat(12));
            eq("one row", false, rs.next());
          }
          boolean serverPrepared = ps.unwrap(org.postgresql.PGStatement.class).isUseServerPrepare();
          if (k >= 6 && !serverPrepared) throw new AssertionError("run " + k + " should use a server-prepared statement");
        });
      }
    }

    check("prepared_demo_where", () -> {
      try (Connection c = connect("carol", "carol", "demo");
          PreparedStatement ps = c.prepareStatement("SELECT ssn, amount FROM sales.orders WHERE id = ? AND region = ?")) {
        String[][] expected = {{"111-11-1111", "100.00"}, {"222-22-2222", "250.50"}};
        String[] regions = {"EU", "US"};
        for (int run = 0; run < 8; run++) {
          int id = run % 2 + 1;
          ps.setInt(1, id);
          ps.setString(2, regions[id - 1]);
          try (ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) throw new AssertionError("run " + run + ": no row");
            eq("ssn run " + run, expected[id - 1][0], rs.getString(1));
            eq("amount run " + run, new BigDecimal(expected[id - 1][1]), rs.getBigDecimal(2));
            eq("one row", false, rs.next());
          }
        }
      }
    });

    check("fetch_size_cursor", () -> {
      try (Connection c = connect()) {
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("SELECT i, i * 10 AS t FROM generate_series(1, 7) AS g(i) ORDER BY i")) {
          ps.setFetchSize(2);
          List<Integer> seen = new ArrayList<>();
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              eq("t", rs.getInt(1) * 10, rs.getInt(2));
              seen.add(rs.getInt(1));
            }
          }
          eq("rows", Arrays.asList(1, 2, 3, 4, 5, 6, 7), seen);
        }
        // the same connection keeps working inside the transaction, then commits
        selectOneWorks(c);
        c.commit();
      }
    });

    check("fetch_size_two_cursors_interleaved", () -> {
      try (Connection c = connect()) {
        c.setAutoCommit(false);
        try (Statement a = c.createStatement(); Statement b = c.createStatement()) {
          a.setFetchSize(2);
          b.setFetchSize(3);
          List<Integer> ra = new ArrayList<>();
          List<Integer> rb = new ArrayList<>();
          try (ResultSet x = a.executeQuery("SELECT i FROM generate_series(1, 6) AS g(i) ORDER BY i");
              ResultSet y = b.executeQuery("SELECT i FROM generate_series(101, 106) AS g(i) ORDER BY i")) {
            boolean more = true;
            while (more) {
              more = false;
              if (x.next()) {
                ra.add(x.getInt(1));
                more = true;
              }
              if (y.next()) {
                rb.add(y.getInt(1));
                more = true;
              }
            }
          }
          eq("cursor a", Arrays.asList(1, 2, 3, 4, 5, 6), ra);
          eq("cursor b", Arrays.asList(101, 102, 103, 104, 105, 106), rb);
        }
        c.rollback();
      }
    });

    check("metadata_getTables", () -> {
      try (Connection c = connect(); ResultSet rs = c.getMetaData().getTables(null, "sales", "%", null)) {
        List<String> found = new ArrayList<>();
        while (rs.next()) {
          found.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
        }
        if (!found.contains("sales.orders:TABLE")) throw new AssertionError("getTables: " + found);
      }
    });

    check("metadata_getColumns", () -> {
      try (Connection c = connect(); ResultSet rs = c.getMetaData().getColumns(null, "sales", "orders", null)) {
        List<String> got = new ArrayList<>();
        while (rs.next()) {
          got.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " " + rs.getInt("DATA_TYPE") + " "
              + rs.getInt("ORDINAL_POSITION"));
          if (rs.getString("COLUMN_NAME").equals("amount")) {
            eq("amount COLUMN_SIZE", 10, rs.getInt("COLUMN_SIZE"));
            eq("amount DECIMAL_DIGITS", 2, rs.getInt("DECIMAL_DIGITS"));
          }
        }
        List<String> expected = Arrays.asList(
            "id int4 " + Types.INTEGER + " 1",
            "ssn text " + Types.VARCHAR + " 2",
            "amount numeric " + Types.NUMERIC + " 3",
            "region text " + Types.VARCHAR + " 4");
        eq("columns", expected, got);
      }
    });

    check("metadata_getSchemas", () -> {
      try (Connection c = connect(); ResultSet rs = c.getMetaData().getSchemas()) {
        List<String> found = new ArrayList<>();
        while (rs.next()) found.add(rs.getString("TABLE_SCHEM"));
        if (!found.contains("sales")) throw new AssertionError("getSchemas: " + found);
      }
    });

    check("metadata_getSQLKeywords", () -> {
      try (Connection c = connect()) {
        String kw = c.getMetaData().getSQLKeywords();
        if (kw == null) throw new AssertionError("getSQLKeywords() is null");
        List<String> words = Arrays.asList(kw.split(","));
        // PostgreSQL keywords that are not SQL:2003 keywords (pgJDBC leaves those out)
        for (String w : new String[] {"analyze", "ilike", "limit", "offset", "returning"}) {
          if (!words.contains(w)) throw new AssertionError("getSQLKeywords() lacks " + w + ": " + kw);
        }
        if (words.contains("select")) throw new AssertionError("getSQLKeywords() lists the SQL:2003 keyword select");
      }
    });

    check("metadata_getFunctions", () -> {
      try (Connection c = connect(); ResultSet rs = c.getMetaData().getFunctions(null, "pg_catalog", "upper")) {
        List<String> found = new ArrayList<>();
        while (rs.next()) found.add(rs.getString("FUNCTION_SCHEM") + "." + rs.getString("FUNCTION_NAME") + ":" + rs.getInt("FUNCTION_TYPE"));
        // upper(text), upper(anyrange), upper(anymultirange): functions returning no table
        eq("upper overloads", Collections.nCopies(3, "pg_catalog.upper:" + DatabaseMetaData.functionNoTable), found);
      }
      try (Connection c = connect(); ResultSet rs = c.getMetaData().getFunctions(null, "pg_catalog", "read_parquet")) {
        if (rs.next()) throw new AssertionError("a function lakegate refuses is listed: read_parquet");
      }
    });

    check("metadata_getFunctionColumns", () -> {
      try (Connection c = connect(); ResultSet rs = c.getMetaData().getFunctionColumns(null, "pg_catalog", "split_part", null)) {
        List<String> got = new ArrayList<>();
        while (rs.next()) got.add(rs.getInt("COLUMN_TYPE") + ":" + rs.getString("TYPE_NAME"));
        eq("split_part(text, text, integer) returns text", Arrays.asList(
            DatabaseMetaData.functionReturn + ":text", DatabaseMetaData.functionColumnIn + ":text",
            DatabaseMetaData.functionColumnIn + ":text", DatabaseMetaData.functionColumnIn + ":int4"), got);
      }
    });

    check("metadata_getProcedures", () -> {
      // PostgreSQL (11 and later) lists only prokind 'p' here, and lakegate has no procedures (CALL is refused):
      // empty, as PostgreSQL answers for its built-in functions
      try (Connection c = connect(); ResultSet rs = c.getMetaData().getProcedures(null, "pg_catalog", "lower")) {
        if (rs.next()) throw new AssertionError("a function listed as a procedure: " + rs.getString("PROCEDURE_NAME"));
      }
    });

    check("metadata_getTablePrivileges", () -> {
      try (Connection c = connect(); ResultSet rs = c.getMetaData().getTablePrivileges(null, "sales", "orders")) {
        List<String> got = new ArrayList<>();
        while (rs.next()) got.add(rs.getString("GRANTEE") + ":" + rs.getString("PRIVILEGE"));
        // read-only: the session user holds SELECT, nothing else, and nobody else is shown (deliberately unlike
        // PostgreSQL, which lists every grantee: other principals' grants are not the session's to see)
        eq("privileges", Arrays.asList("alice:SELECT"), got);
      }
    });

    check("error_then_recovery", () -> {
      try (Connection c = connect()) {
        SQLException e = expectSqlError(() -> {
          try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT * FROM no_such_table_jdbc");
          }
        });
        eq("SQLState", "42P01", e.getSQLState());
        selectOneWorks(c);
        SQLException syntax = expectSqlError(() -> {
          try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT * FROM WHERE");
          }
        });
        eq("SQLState", "42601", syntax.getSQLState());
        selectOneWorks(c);
      }
    });

    check("error_in_transaction_then_rollback", () -> {
      try (Connection c = connect()) {
        c.setAutoCommit(false);
        selectOneWorks(c);
        SQLException e = expectSqlError(() -> {
          try (Statement s = c.createStatement()) {
            s.executeQuery("SELECT * FROM no_such_table_jdbc_tx");
          }
        });
        eq("SQLState", "42P01", e.getSQLState());
        SQLException aborted = expectSqlError(() -> selectOneWorks(c));
        eq("SQLState", "25P02", aborted.getSQLState());
        c.rollback();
        selectOneWorks(c);
        c.commit();
      }
    });

    check("refused_statement", () -> {
      try (Connection c = connect()) {
        SQLException e = expectSqlError(() -> {
          try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE sales.jdbc_x(a int)");
          }
        });
        if (!e.getSQLState().equals("42501") && !e.getSQLState().equals("0A000")) {
          throw new AssertionError("SQLState " + e.getSQLState());
        }
        selectOneWorks(c);
      }
    });

    check("multiple_statements_one_execute", () -> {
      try (Connection c = connect(); Statement s = c.createStatement()) {
        eq("first is a result set", true, s.execute("SELECT 1; SELECT 'two'"));
        try (ResultSet rs = s.getResultSet()) {
          rs.next();
          eq("first", 1, rs.getInt(1));
        }
        eq("second is a result set", true, s.getMoreResults());
        try (ResultSet rs = s.getResultSet()) {
          rs.next();
          eq("second", "two", rs.getString(1));
        }
        eq("no more", false, s.getMoreResults());
        eq("update count", -1, s.getUpdateCount());
      }
    });

    check("transaction_commit_rollback", () -> {
      try (Connection c = connect()) {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM sales.orders WHERE id <= 2")) {
          rs.next();
          eq("count", 2L, rs.getLong(1));
        }
        c.commit();
        selectOneWorks(c);
        c.rollback();
        c.setAutoCommit(true);
        selectOneWorks(c);
      }
    });

    check("cancel_57014", () -> {
      try (Connection c = connect(); Statement s = c.createStatement()) {
        AtomicReference<Throwable> canceller = new AtomicReference<>();
        Thread t = new Thread(() -> {
          try {
            Thread.sleep(700);
            s.cancel();
          } catch (Throwable e) {
            canceller.set(e);
          }
        });
        long started = System.currentTimeMillis();
        t.start();
        SQLException e = expectSqlError(() -> s.executeQuery(LONG_QUERY).close());
        t.join(10000);
        if (canceller.get() != null) throw new AssertionError("cancel() threw " + canceller.get());
        eq("SQLState", "57014", e.getSQLState());
        long took = System.currentTimeMillis() - started;
        if (took > 15000) throw new AssertionError("cancel took " + took + " ms");
        selectOneWorks(c);
      }
    });

    check("query_timeout_57014", () -> {
      try (Connection c = connect(); Statement s = c.createStatement()) {
        s.setQueryTimeout(1);
        SQLException e = expectSqlError(() -> s.executeQuery(LONG_QUERY).close());
        eq("SQLState", "57014", e.getSQLState());
        s.setQueryTimeout(0);
        selectOneWorks(c);
      }
    });

    System.out.println("DONE");
  }
}
