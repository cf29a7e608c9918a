import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.TimeZone;
import java.util.UUID;

/**
 * One small write script through pgJDBC, for tests/integration/writeClients.test.ts.
 * Usage: java -cp postgresql.jar:. JdbcWrites HOST PORT TABLE extended|simple
 *
 * Connects as bob to database demo (preferQueryMode=simple for `simple`: every statement a
 * simple query with the parameters written in by the driver) and writes into TABLE: a
 * PreparedStatement insert binding every type of README's type table, one binding NULLs,
 * Statement inserts, executeBatch of a PreparedStatement and of a Statement, autocommit off
 * with commit and rollback, getUpdateCount after execute (also of two statements in one
 * string), and errors. Prints one line per step, "name: outcome" (the update count or counts,
 * or the error's SQLState); the test compares them with what a real PostgreSQL prints.
 */
public class JdbcWrites {
  static final String COLUMNS =
      "id integer, b boolean, i2 smallint, i4 integer, i8 bigint, r4 real, r8 double precision, n numeric(12,3), nn numeric,"
          + " t text, vc varchar(10), ch char(3), by bytea, d date, tm time, ts timestamp, tz timestamptz, u uuid,"
          + " js json, jb jsonb, ia integer[], ta text[]";
  static final String ALL = "id, b, i2, i4, i8, r4, r8, n, nn, t, vc, ch, by, d, tm, ts, tz, u, js, jb, ia, ta";

  interface Step {
    String run() throws Exception;
  }

  static void step(String name, Step s) {
    String out;
    try {
      out = s.run();
    } catch (SQLException e) {
      out = "error " + e.getSQLState();
    } catch (Exception e) {
      out = "failed " + e.toString().replace('\n', ' ');
    }
    System.out.println(name + ": " + out);
    System.out.flush();
  }

  public static void main(String[] args) throws Exception {
    TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
    String host = args[0];
    String port = args[1];
    String table = args[2];
    boolean simple = args[3].equals("simple");
    Properties p = new Properties();
    p.setProperty("user", "bob");
    p.setProperty("password", "bob");
    p.setProperty("sslmode", "disable");
    p.setProperty("socketTimeout", "60");
    if (simple) p.setProperty("preferQueryMode", "simple");
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/demo", p)) {
      Statement s = c.createStatement();
      step("create", () -> String.valueOf(s.executeUpdate("CREATE TABLE " + table + " (" + COLUMNS + ")")));

      String insertAll = "INSERT INTO " + table + " (" + ALL + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
      step("prepared_every_type", () -> {
        try (PreparedStatement ps = c.prepareStatement(insertAll)) {
          ps.setInt(1, 1);
          ps.setBoolean(2, true);
          ps.setShort(3, (short) 7);
          ps.setInt(4, 42);
          ps.setLong(5, 1099511627776L);
          ps.setFloat(6, 1.5f);
          ps.setDouble(7, 2.25);
          ps.setBigDecimal(8, new BigDecimal("12.345"));
          ps.setBigDecimal(9, new BigDecimal("-0.5"));
          ps.setString(10, "text ✓");
          ps.setString(11, "vc");
          ps.setString(12, "ab");
          ps.setBytes(13, new byte[] {0x00, (byte) 0xff});
          ps.setObject(14, LocalDate.of(2024, 2, 29));
          ps.setObject(15, LocalTime.of(13, 14, 15, 123456000));
          ps.setObject(16, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 678901000));
          ps.setObject(17, OffsetDateTime.of(2024, 1, 2, 3, 4, 5, 0, ZoneOffset.ofHours(2)));
          ps.setObject(18, UUID.fromString("12345678-1234-5678-1234-567812345678"));
          ps.setObject(19, "{\"b\": 1, \"a\": [1, 2]}", Types.OTHER);
          ps.setObject(20, "{\"a\": [1, 2], \"b\": 1}", Types.OTHER);
          ps.setArray(21, c.createArrayOf("int4", new Integer[] {1, 2, null}));
          ps.setArray(22, c.createArrayOf("text", new String[] {"x", "y z"}));
          return String.valueOf(ps.executeUpdate());
        }
      });
      step("prepared_nulls", () -> {
        try (PreparedStatement ps = c.prepareStatement(insertAll)) {
          int[] types = {
            Types.INTEGER, Types.BOOLEAN, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.REAL, Types.DOUBLE, Types.NUMERIC, Types.NUMERIC,
            Types.VARCHAR, Types.VARCHAR, Types.CHAR, Types.BINARY, Types.DATE, Types.TIME, Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE,
            Types.OTHER, Types.OTHER, Types.OTHER, Types.ARRAY, Types.ARRAY
          };
          ps.setInt(1, 2);
          for (int i = 2; i <= types.length; i++) ps.setNull(i, types[i - 1]);
          return String.valueOf(ps.executeUpdate());
        }
      });
      step("statement_insert", () -> {
        boolean rows = s.execute("INSERT INTO " + table + " (id, t, ia) VALUES (3, 'three', '{3}')");
        return rows + " " + s.getUpdateCount();
      });
      step("prepared_batch", () -> {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, t, n) VALUES (?, ?, ?)")) {
          for (int id = 10; id <= 12; id++) {
            ps.setInt(1, id);
            ps.setString(2, "batch " + id);
            ps.setBigDecimal(3, new BigDecimal(id + ".5"));
            ps.addBatch();
          }
          return Arrays.toString(ps.executeBatch());
        }
      });
      step("statement_batch", () -> {
        s.addBatch("UPDATE " + table + " SET t = 'b' WHERE id >= 10");
        s.addBatch("DELETE FROM " + table + " WHERE id = 12");
        s.addBatch("UPDATE " + table + " SET t = 'none' WHERE id = 999");
        return Arrays.toString(s.executeBatch());
      });
      step("execute_update_count_zero", () -> {
        boolean rows = s.execute("UPDATE " + table + " SET i4 = 5 WHERE id = 999");
        return rows + " " + s.getUpdateCount();
      });
      step("two_statements_update_counts", () -> {
        List<String> results = new ArrayList<>();
        boolean isResultSet = s.execute("INSERT INTO " + table + " (id) VALUES (30), (31); UPDATE " + table + " SET i4 = id WHERE id >= 30");
        while (true) {
          if (isResultSet) results.add("rows");
          else if (s.getUpdateCount() == -1) break;
          else results.add(String.valueOf(s.getUpdateCount()));
          isResultSet = s.getMoreResults();
        }
        return results.toString();
      });

      c.setAutoCommit(false);
      step("tx_insert", () -> String.valueOf(s.executeUpdate("INSERT INTO " + table + " (id, t) VALUES (20, 'in tx')")));
      step("tx_update", () -> {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + table + " SET t = ? WHERE id = ?")) {
          ps.setString(1, "committed");
          ps.setInt(2, 20);
          return String.valueOf(ps.executeUpdate());
        }
      });
      step("commit", () -> {
        c.commit();
        return "ok";
      });
      step("tx_rolled_back_insert", () -> String.valueOf(s.executeUpdate("INSERT INTO " + table + " (id, t) VALUES (21, 'rolled back')")));
      step("rollback", () -> {
        c.rollback();
        return "ok";
      });
      step("tx_error", () -> String.valueOf(s.executeUpdate("INSERT INTO " + table + " (id) VALUES ('x')")));
      step("tx_after_error", () -> String.valueOf(s.executeUpdate("INSERT INTO " + table + " (id) VALUES (22)")));
      step("rollback_after_error", () -> {
        c.rollback();
        return "ok";
      });
      c.setAutoCommit(true);

      step("varchar_parameter_into_integer", () -> {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id) VALUES (?)")) {
          ps.setString(1, "40");
          return String.valueOf(ps.executeUpdate());
        }
      });
      step("bad_literal", () -> String.valueOf(s.executeUpdate("INSERT INTO " + table + " (id, d) VALUES (41, '2024-02-30')")));
      step("missing_table", () -> String.valueOf(s.executeUpdate("INSERT INTO analytics.no_such_table (id) VALUES (1)")));
      step("delete", () -> {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE id = ?")) {
          ps.setInt(1, 3);
          return String.valueOf(ps.executeUpdate());
        }
      });
    }
    System.out.println("DONE");
  }
}
