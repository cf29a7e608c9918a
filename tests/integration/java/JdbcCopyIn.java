import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * pgJDBC's CopyManager.copyIn: rows streamed as COPY … FROM STDIN (CSV with a header), then a
 * COPY whose data has a bad row. Prints "COPY <n>" or "ERROR <SQLState>" per step.
 * args: host port database user password table
 */
public class JdbcCopyIn {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    p.setProperty("user", args[3]);
    p.setProperty("password", args[4]);
    p.setProperty("connectTimeout", "20");
    p.setProperty("socketTimeout", "60");
    p.setProperty("sslmode", "disable");
    String url = "jdbc:postgresql://" + args[0] + ":" + args[1] + "/" + args[2];
    String table = args[5];
    try (Connection c = DriverManager.getConnection(url, p)) {
      CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
      step(copy, "COPY " + table + " FROM STDIN WITH (FORMAT csv, HEADER)", "id,name\n100,\"jdbc, one\"\n101,\n102,\"ünï \"\"q\"\"\"\n");
      step(copy, "COPY " + table + " (id, name) FROM STDIN", "103\tok\nnot a number\tbad\n");
      step(copy, "COPY " + table + " FROM STDIN", "104\tafter the error\n");
    }
  }

  private static void step(CopyManager copy, String sql, String data) {
    try {
      long n = copy.copyIn(sql, new ByteArrayInputStream(data.getBytes(StandardCharsets.UTF_8)));
      System.out.println("COPY " + n);
    } catch (SQLException e) {
      System.out.println("ERROR " + e.getSQLState());
    } catch (Exception e) {
      System.out.println("FAILED " + e);
    }
  }
}
