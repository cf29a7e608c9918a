{#- Fails when an order line was appended twice (the incremental filter did not hold). -#}
select order_id, line_no, count(*) as copies
from {{ ref('order_lines_append') }}
group by order_id, line_no
having count(*) > 1
