/*
 * The reference side of the policy-engine benchmark: Apache Ranger's own engine
 * (ranger-plugins-common, RangerPolicyEngineImpl) loading the same ServicePolicies and
 * RangerRoles JSON as lakegate (Ranger's JsonUtils), evaluating the same requests with
 * evaluatePolicies(request, policyType, null) on one thread: warm-up, timed loop, then each
 * call timed on its own for p50/p99. One JSON line per figure on stdout, the decisions in
 * decisions-ranger-N.txt (same format as bench/ranger/lakegate.ts).
 *
 * usage: java -cp LIB/*:CLASSES RangerBench DIR 10,1000,10000 WARMUP_MS MEASURE_MS LOADS
 */
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.ranger.authorization.hadoop.config.RangerPluginConfig;
import org.apache.ranger.authorization.utils.JsonUtils;
import org.apache.ranger.plugin.model.RangerPolicy;
import org.apache.ranger.plugin.policyengine.RangerAccessRequest;
import org.apache.ranger.plugin.policyengine.RangerAccessRequestImpl;
import org.apache.ranger.plugin.policyengine.RangerAccessResourceImpl;
import org.apache.ranger.plugin.policyengine.RangerAccessResult;
import org.apache.ranger.plugin.policyengine.RangerPluginContext;
import org.apache.ranger.plugin.policyengine.RangerPolicyEngine;
import org.apache.ranger.plugin.policyengine.RangerPolicyEngineImpl;
import org.apache.ranger.plugin.util.RangerRoles;
import org.apache.ranger.plugin.util.ServicePolicies;

public class RangerBench {
    static final String[] KINDS = {"access", "mask", "rowfilter"};
    static final int[] TYPES = {RangerPolicy.POLICY_TYPE_ACCESS, RangerPolicy.POLICY_TYPE_DATAMASK, RangerPolicy.POLICY_TYPE_ROWFILTER};
    static long sink;

    static RangerPolicyEngine load(String policiesJson, RangerRoles roles) {
        ServicePolicies sp = JsonUtils.jsonToObject(policiesJson, ServicePolicies.class);
        // As a Hive plugin would: plugin config with the plugin's default engine options.
        RangerPluginConfig config = new RangerPluginConfig("hive", sp.getServiceName(), "hiveServer2", "cl1", "on-prem", null);
        return new RangerPolicyEngineImpl(sp, new RangerPluginContext(config), roles);
    }

    static String decision(int kind, RangerAccessResult r) {
        switch (kind) {
            case 0: return (r.getIsAllowed() ? "allow" : "deny") + ":" + r.getPolicyId();
            case 1: return (r.getMaskType() == null ? "-" : r.getMaskType()) + ":" + r.getPolicyId();
            default: return (r.getFilterExpr() == null ? "-" : r.getFilterExpr()) + ":" + r.getPolicyId();
        }
    }

    static void emit(String json) {
        System.out.println("{\"engine\":\"ranger-java\"," + json + "}");
        System.out.flush();
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        String[] counts = args[1].split(",");
        long warmupMs = Long.parseLong(args[2]);
        long measureMs = Long.parseLong(args[3]);
        int loads = Integer.parseInt(args[4]);
        RangerRoles roles = JsonUtils.jsonToObject(Files.readString(dir.resolve("roles.json")), RangerRoles.class);
        ObjectMapper mapper = new ObjectMapper();

        for (String c : counts) {
            int n = Integer.parseInt(c);
            String text = Files.readString(dir.resolve("policies-" + n + ".json"), StandardCharsets.UTF_8);
            double[] times = new double[loads];
            RangerPolicyEngine engine = null;
            for (int i = 0; i < loads; i++) {
                long t0 = System.nanoTime();
                engine = load(text, roles);
                times[i] = (System.nanoTime() - t0) / 1e6;
            }
            double[] rest = Arrays.copyOfRange(times, 1, Math.max(2, loads));
            if (loads == 1) rest[0] = times[0];
            Arrays.sort(rest);
            emit("\"policies\":" + n + ",\"kind\":\"load\",\"firstMs\":" + times[0] + ",\"medianMs\":" + rest[rest.length / 2]);

            JsonNode all = mapper.readTree(Files.readString(dir.resolve("requests-" + n + ".json")));
            List<String> decisions = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                List<RangerAccessRequest> reqs = new ArrayList<>();
                for (JsonNode r : all) {
                    if (!r.get("kind").asText().equals(KINDS[k])) continue;
                    Map<String, Object> res = new HashMap<>();
                    r.get("resource").fields().forEachRemaining(e -> res.put(e.getKey(), e.getValue().asText()));
                    HashSet<String> groups = new HashSet<>();
                    r.get("groups").forEach(g -> groups.add(g.asText()));
                    reqs.add(new RangerAccessRequestImpl(new RangerAccessResourceImpl(res), r.get("accessType").asText(), r.get("user").asText(), groups, null));
                }
                RangerAccessRequest[] rs = reqs.toArray(new RangerAccessRequest[0]);
                int type = TYPES[k];
                for (RangerAccessRequest r : rs) decisions.add(KINDS[k] + " " + decision(k, engine.evaluatePolicies(r, type, null)));

                long t0 = System.nanoTime();
                while (System.nanoTime() - t0 < warmupMs * 1_000_000L) loop(engine, rs, type);
                long done = 0;
                long elapsed;
                t0 = System.nanoTime();
                do {
                    loop(engine, rs, type);
                    done += rs.length;
                    elapsed = System.nanoTime() - t0;
                } while (elapsed < measureMs * 1_000_000L);
                double perSec = done * 1e9 / elapsed;

                int nSamples = (int) Math.max(rs.length, Math.min(200_000, Math.round(perSec / 4)));
                long[] samples = new long[nSamples];
                for (int i = 0; i < nSamples; i++) {
                    RangerAccessRequest r = rs[i % rs.length];
                    long s = System.nanoTime();
                    RangerAccessResult res = engine.evaluatePolicies(r, type, null);
                    samples[i] = System.nanoTime() - s;
                    sink += res.getPolicyId();
                }
                Arrays.sort(samples);
                emit("\"policies\":" + n + ",\"kind\":\"" + KINDS[k] + "\",\"requests\":" + rs.length + ",\"decisions\":" + done
                        + ",\"perSec\":" + perSec + ",\"p50ns\":" + samples[nSamples / 2] + ",\"p99ns\":" + samples[Math.min(nSamples - 1, (int) (nSamples * 0.99))]);
            }
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(dir.resolve("decisions-ranger-" + n + ".txt")))) {
                for (String d : decisions) w.println(d);
            }
        }
        if (sink == 42) System.err.println(sink);
    }

    static void loop(RangerPolicyEngine engine, RangerAccessRequest[] rs, int type) {
        for (RangerAccessRequest r : rs) sink += engine.evaluatePolicies(r, type, null).getPolicyId();
    }
}
