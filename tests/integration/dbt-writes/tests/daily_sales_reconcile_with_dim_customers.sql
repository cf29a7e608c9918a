{#- Fails when the incremental daily sales and the rebuilt dimension disagree on the total: a
    delete+insert that kept a replaced day, or lost one, shows here. -#}
select daily.amount, dim.amount
from (select sum(amount) as amount from {{ ref('customer_daily_sales') }}) as daily
cross join (select sum(total_amount) as amount from {{ ref('dim_customers') }}) as dim
where daily.amount <> dim.amount
