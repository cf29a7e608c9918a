{#- A view over a seed and the demo's sales.orders (a dbt source in another namespace). Only id
    and region are read: lakegate masks ssn and amount for role engineer, and the PostgreSQL
    reference has no masks, so the two could not be compared on them. -#}
{{ config(materialized='view', persist_docs={'relation': true, 'columns': true}) }}
select r.region, r.region_name, r.vat_rate, r.launched_on,
       count(o.id) as order_count,
       min(o.id) as first_order_id
from {{ ref('regions') }} as r
left join {{ source('sales', 'orders') }} as o on o.region = r.region
group by r.region, r.region_name, r.vat_rate, r.launched_on
